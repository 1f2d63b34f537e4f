// Refunds (API.md "Refunds"). What is refundable is checked and reserved in one transaction, so racing requests can
// never together exceed what arrived; the provider is asked outside any transaction; its answer is recorded in another.
// refund-follower.ts asks again until each refund is PROCESSED or FAILED. Providers take refunds without an idempotency
// key, so a submission that may have reached the provider unanswered is never sent again before the provider's own
// list says it has no such refund, and never failed by Owo alone: only one that certainly never reached it is.
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { db, write, type Db, type Tx } from "../../db/client";
import { oneOf } from "../../db/functions";
import { payments, refunds, type PaymentRow, type RefundRow } from "../../db/schema";
import { ApiError, invalidFields, zodFieldErrors } from "../api-error";
import { clock } from "../clock";
import { newId, randomDigits } from "../identifiers";
import type { RefundRequest, RefundState } from "../providers/connector";
import { describeFailure, findRefund, isRefusal, mayHaveReached, refundsAt, submitRefund } from "../providers/refunding";
import { recordEvent } from "./events";
import { expireIfOverdue } from "./lifecycle";
import { noteUnanswered, recordRefundState, settleRefund } from "./refund-states";
import { formatKobo, parseAmount, type Kobo } from "../money";
import { isOpen } from "./status";
import { findPayment } from "./lookup";
import { refundView } from "./refund-views";
import type { Scope } from "../merchants/scope";

const AMOUNT = 'must be naira with at most 2 decimals, more than 0.00, e.g. "500.00"';
const REFERENCE = "must be 1 to 64 of A-Z a-z 0-9 . _ - with at least one letter or digit";

/** The REST body and the tRPC input (without paymentReference). */
export const refundInput = z.object({
  amount: z
    .string({ error: AMOUNT })
    .refine((a) => (parseAmount(a) ?? 0) > 0, AMOUNT)
    .optional(),
  reason: z
    .string({ error: "is required: why the money goes back, 1 to 200 characters" })
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters"),
  refundReference: z
    .string({ error: REFERENCE })
    .regex(/^(?=.*[A-Za-z0-9])[A-Za-z0-9._-]{1,64}$/, REFERENCE)
    .optional(),
});
export type RefundInput = z.output<typeof refundInput>;

/** The REST door's parse of the body: as tRPC's, but the amount alone at fault is S2, as at initiation. */
export function parseRefundBody(body: unknown): RefundInput {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalidFields([{ field: "body", message: "must be a JSON object" }]);
  const parsed = refundInput.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors = zodFieldErrors(parsed.error);
  if (errors.every((e) => e.field === "amount")) throw new ApiError("S2", `Invalid amount: amount ${errors[0]?.message ?? AMOUNT}`, errors);
  throw invalidFields(errors);
}

/** The answer to a refund request: always PENDING (API.md), a repeat with the same refundReference the same again. */
export type RefundAnswer = {
  code: "00";
  message: "Refund accepted";
  refund: { refundReference: string; amount: string; status: "PENDING"; reason: string; createdAt: string };
};

function answerOf(r: RefundRow): RefundAnswer {
  const { refundReference, amount, reason, createdAt } = refundView(r);
  return { code: "00", message: "Refund accepted", refund: { refundReference, amount, status: "PENDING", reason, createdAt } };
}

/** What refundableIn reads of a payment. */
type RefundableOf = Pick<PaymentRow, "id" | "status" | "amountPaidKobo" | "amountToRefundKobo">;

/**
 * amountPaid + amountToRefund − every refund PENDING, NEEDS_ATTENTION or PROCESSED (a FAILED one frees its amount), for
 * each of `rows`, keyed by payment id: one grouped query, however many rows.
 */
async function refundableIn(reader: Pick<Tx, "select">, rows: RefundableOf[]): Promise<Map<number, Kobo>> {
  const ids = rows.map((p) => p.id);
  const held = await reader
    .select({ paymentId: refunds.paymentId, kobo: sql<number>`coalesce(sum(${refunds.amountKobo}), 0)`.mapWith(Number) })
    .from(refunds)
    .where(and(oneOf(refunds.paymentId, ids), inArray(refunds.status, ["PENDING", "NEEDS_ATTENTION", "PROCESSED"])))
    .groupBy(refunds.paymentId);
  const heldBy = new Map(held.map((h) => [h.paymentId, h.kobo]));
  return new Map(rows.map((p) => [p.id, p.amountPaidKobo + p.amountToRefundKobo - (heldBy.get(p.id) ?? 0)]));
}

/** What may still be refunded of each of `rows` (by payment id), for the dashboard; 0 for one that cannot be refunded now. */
export async function refundableKoboOf(q: Db, rows: RefundableOf[]): Promise<Map<number, Kobo>> {
  // Nothing arrived, nothing to refund: such rows (most of an export's) need no reading.
  const closed = rows.filter((p) => !isOpen(p.status) && p.amountPaidKobo + p.amountToRefundKobo > 0);
  const left = closed.length ? await refundableIn(q, closed) : new Map<number, Kobo>();
  return new Map(rows.map((p) => [p.id, left.get(p.id) ?? 0]));
}

/** What may still be refunded of one payment, for the dashboard; 0 for a payment that cannot be refunded now. */
export async function refundableKobo(q: Db, p: PaymentRow): Promise<Kobo> {
  return (await refundableKoboOf(q, [p])).get(p.id) ?? 0;
}

type Requested = { amountKobo?: Kobo; reason: string; refundReference?: string };

/** A refund submitted to the provider but not yet answered is asked about (or sent again) after this lease. */
const SUBMIT_LEASE_MS = 60_000;

async function reserve(tx: Tx, paymentId: number, req: Requested, now: number): Promise<{ replayed: boolean; refund: RefundRow }> {
  const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId));
  if (!p) throw new ApiError("S404", "No such payment");
  if (req.refundReference !== undefined) {
    const [first] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.paymentId, p.id), eq(refunds.refundReference, req.refundReference)));
    if (first) return { replayed: true, refund: first };
  }
  // The provider first: a payment it cannot refund through Owo never can be, whatever its status.
  if (!(await refundsAt(tx, p)))
    throw new ApiError("S15", `${p.provider} cannot refund this payment through Owo: refund it at the provider`);
  if (isOpen(p.status))
    throw new ApiError("S15", `Only a payment that is not pending or partially paid can be refunded; ${p.paymentReference} is ${p.status}`);
  const left = (await refundableIn(tx, [p])).get(p.id) ?? 0;
  if (left <= 0)
    throw new ApiError("S15", `Nothing is left to refund on ${p.paymentReference}: every naira that arrived is refunded or being refunded`);
  const amountKobo = req.amountKobo ?? left;
  if (amountKobo > left)
    throw new ApiError("S15", `A refund of ${formatKobo(amountKobo)} is more than is refundable (${formatKobo(left)})`, [
      { field: "amount", message: `must be at most ${formatKobo(left)}` },
    ]);
  const refund: RefundRow = {
    id: newId("rfd"),
    paymentId: p.id,
    merchantId: p.merchantId,
    mode: p.mode,
    refundReference: req.refundReference ?? `RFD${randomDigits(17)}`,
    amountKobo,
    reason: req.reason,
    status: "PENDING",
    provider: p.provider,
    providerAccountId: p.providerAccountId,
    providerRefundId: null,
    failureReason: null,
    unansweredAt: null,
    checks: 0,
    nextCheckAt: now + SUBMIT_LEASE_MS,
    createdAt: now,
    updatedAt: now,
    settledAt: null,
  };
  await tx.insert(refunds).values(refund);
  await recordEvent(tx, p, "refund_requested", now, {
    amountKobo,
    detail: { refundReference: refund.refundReference, reason: refund.reason },
  });
  return { replayed: false, refund };
}

function requestOf(p: PaymentRow, refund: RefundRow): RefundRequest {
  return {
    reference: p.issueReference ?? p.linkingReference,
    providerReference: p.providerReference ?? p.accountNumber ?? "",
    amountKobo: refund.amountKobo,
    refundReference: refund.refundReference,
    reason: refund.reason,
  };
}

/** Sends a reserved refund to the provider and records what it said. Never throws: the follower asks again. */
export async function sendRefund(refund: RefundRow): Promise<void> {
  const [p] = await db().select().from(payments).where(eq(payments.id, refund.paymentId));
  if (!p) return;
  try {
    await recordRefundState(refund.id, await submitRefund(refund, requestOf(p, refund)));
  } catch (err) {
    if (isRefusal(err)) await settleRefund(refund.id, "FAILED", `${refund.provider} refused the refund: ${describeFailure(err)}`);
    else await noteUnanswered(refund.id, describeFailure(err), { mayExistAtProvider: mayHaveReached(err) });
  }
}

/**
 * A submission that may have reached the provider unanswered: the provider is asked whether it holds the refund (by
 * transaction, amount and refundReference; never one of the payment's other refunds). Found: followed from there.
 * Certainly not there: sent again. No answer, or a provider with no way to look: it stays PENDING and flagged.
 */
export async function lookForRefund(refund: RefundRow): Promise<void> {
  const [p] = await db().select().from(payments).where(eq(payments.id, refund.paymentId));
  if (!p) return;
  const knownRefundIds = (
    await db()
      .select({ id: refunds.providerRefundId })
      .from(refunds)
      .where(and(eq(refunds.paymentId, p.id), ne(refunds.id, refund.id)))
  ).flatMap((r) => (r.id === null ? [] : [r.id]));
  let found: RefundState | null | undefined;
  try {
    found = await findRefund(refund, { ...requestOf(p, refund), since: refund.createdAt, knownRefundIds });
  } catch (err) {
    return noteUnanswered(refund.id, `looking for the refund: ${describeFailure(err)}`, { mayExistAtProvider: true });
  }
  if (found === undefined)
    return noteUnanswered(refund.id, `${refund.provider} offers no way to look for a refund: check at the provider`, {
      mayExistAtProvider: true,
    });
  if (found !== null) return recordRefundState(refund.id, found);
  const cleared = await write(
    async (tx) =>
      (
        await tx
          .update(refunds)
          .set({ unansweredAt: null })
          .where(and(eq(refunds.id, refund.id), eq(refunds.status, "PENDING")))
          .returning({ id: refunds.id })
      ).length === 1,
  );
  if (cleared) await sendRefund({ ...refund, unansweredAt: null });
}

export async function requestRefund(
  { merchantId, mode }: Scope,
  paymentReference: string,
  input: RefundInput,
  now = clock.now(),
): Promise<RefundAnswer> {
  // An open payment past its time is expired: then it can be refunded.
  const p = await expireIfOverdue(await findPayment({ merchantId, mode }, paymentReference), now);
  const requested: Requested = {
    amountKobo: input.amount === undefined ? undefined : (parseAmount(input.amount) ?? 0),
    reason: input.reason,
    refundReference: input.refundReference,
  };
  const { replayed, refund } = await write(async (tx) => reserve(tx, p.id, requested, now));
  if (!replayed) await sendRefund(refund);
  return answerOf(refund);
}
