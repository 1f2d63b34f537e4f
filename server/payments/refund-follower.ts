// Following refunds at their providers until PROCESSED or FAILED: each PENDING or NEEDS_ATTENTION refund is asked
// about on a backoff schedule (one whose submission certainly never reached the provider is sent again; one that may
// have reached it is looked for there first), and a provider's refund notice asks at once.
import { and, asc, eq, lte, sql } from "drizzle-orm";
import { db, write } from "../../db/client";
import { payments, refunds, type RefundRow } from "../../db/schema";
import { clock } from "../clock";
import { log } from "../logger";
import type { RefundReading } from "../providers/connector";
import { describeFailure, noticesSigned, queryRefund, type ProviderPlace } from "../providers/refunding";
import { repeatEvery } from "../recurring";
import { settings } from "../settings";
import { lookForRefund, sendRefund } from "./refunds";
import { noteUnanswered, recordRefundState } from "./refund-states";

/** While one process asks about a refund, the others leave it alone this long. */
const CLAIM_MS = 60_000;

/** Takes the refunds due now, pushing their next check past the claim so no other loop asks at the same time. */
async function claimDue(now: number, limit: number): Promise<RefundRow[]> {
  return write(async (tx) => {
    const due = await tx
      .select()
      .from(refunds)
      // Literal statuses, as the partial index refunds_due has them, so SQLite uses it.
      .where(and(sql`${refunds.status} in ('PENDING', 'NEEDS_ATTENTION')`, lte(refunds.nextCheckAt, now)))
      .limit(limit);
    for (const r of due)
      await tx
        .update(refunds)
        .set({ nextCheckAt: now + CLAIM_MS })
        .where(eq(refunds.id, r.id));
    return due;
  });
}

/** Asks the provider how the refund stands and records the answer; a provider with no query waits for its notice. */
async function check(r: RefundRow): Promise<void> {
  // Sent again blind only when its last submission certainly never reached the provider (refused, counted by
  // noteUnanswered). One with no outcome recorded at all was being sent when Owo stopped: it may be at the provider,
  // so it is looked for first, as one whose answer was lost.
  if (r.providerRefundId === null) return r.unansweredAt === null && r.checks > 0 ? sendRefund(r) : lookForRefund(r);
  try {
    const state = await queryRefund(r, r.providerRefundId);
    await recordRefundState(r.id, state ?? { refundId: r.providerRefundId, state: "pending" });
  } catch (err) {
    // A failed query is no verdict on the refund: it stays PENDING and is asked again.
    await noteUnanswered(r.id, describeFailure(err), { mayExistAtProvider: false });
  }
}

/** One pass: every refund due now, one after another. Returns how many were asked about. */
export async function followRefunds(now = clock.now(), limit = 20): Promise<number> {
  const due = await claimDue(now, limit);
  for (const r of due) await check(r);
  return due.length;
}

/**
 * A provider's notice about a refund (read and signature-checked by its connector). The notice only says "look":
 * the provider's own record decides, as for payments; a provider that cannot be asked is taken at its signed word,
 * and an unsigned notice (SeerBit's) that no query confirms moves nothing.
 */
export type RefundNoticeOutcome = { result: "applied" | "duplicate" | "no_refund" | "rejected"; paymentId: number | null };

/** What the sender of a refund notice is answered, through a provider account's door and the sandbox bank's alike. */
export const REFUND_NOTICE_ANSWERS: Record<RefundNoticeOutcome["result"], string> = {
  applied: "Refund notice applied",
  duplicate: "Duplicate refund notice",
  no_refund: "No refund for this notice; recorded",
  rejected: "Notice does not match the provider's record; nothing moved",
};

export async function refundNoticed(place: ProviderPlace, reading: RefundReading): Promise<RefundNoticeOutcome> {
  const r = await noticedRefund(place, reading);
  if (!r) return { result: "no_refund", paymentId: null };
  // A refund waiting for the customer's account still moves when the provider pays or fails it (the merchant may have
  // given the account at the provider itself); its own needs-attention notice again is a repeat.
  const open = r.status === "PENDING" || (r.status === "NEEDS_ATTENTION" && reading.state !== "needs_attention");
  if (!open) return { result: "duplicate", paymentId: r.paymentId };
  const refundId = reading.refundId ?? r.providerRefundId;
  let state = null;
  try {
    if (refundId) state = await queryRefund(r, refundId);
  } catch (err) {
    // The provider could not be asked now: the follower asks again on its schedule, so the notice is not lost.
    log.warn({ refundId: r.id, err: describeFailure(err) }, "refund notice: the provider could not be asked; the follower will");
    return { result: "no_refund", paymentId: r.paymentId };
  }
  if (!state && !noticesSigned(place)) return { result: "rejected", paymentId: r.paymentId };
  await recordRefundState(r.id, state ?? { refundId: refundId ?? "", state: reading.state });
  return { result: state && state.state !== reading.state ? "rejected" : "applied", paymentId: r.paymentId };
}

/**
 * The refund a notice is about, among those of the provider account whose URL received it: by the provider's refund
 * id, or (events that name none) by the refunded payment's providerReference and the amount, oldest still open first.
 */
async function noticedRefund(place: ProviderPlace, reading: RefundReading): Promise<RefundRow | undefined> {
  const mine = (r: RefundRow) => r.provider === place.provider && r.providerAccountId === place.providerAccountId;
  if (reading.refundId) {
    return (
      await db()
        .select()
        .from(refunds)
        .where(and(eq(refunds.provider, place.provider), eq(refunds.providerRefundId, reading.refundId)))
    ).find(mine);
  }
  if (!reading.providerReference) return undefined;
  return (
    await db()
      .select({ refund: refunds })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(and(eq(payments.providerReference, reading.providerReference), sql`${refunds.status} in ('PENDING', 'NEEDS_ATTENTION')`))
      .orderBy(asc(refunds.createdAt))
  )
    .map((row) => row.refund)
    .find((r) => mine(r) && (reading.amountKobo === undefined || r.amountKobo === reading.amountKobo));
}

/** The loop beside the HTTP front: a pass every 5 s (scaled by OWO_REQUERY_BACKOFF_SCALE, at least every 50 ms). */
export function startRefundFollower(): () => Promise<void> {
  const every = Math.max(50, Math.round(5_000 * settings().requeryBackoffScale));
  return repeatEvery(every, "refund follower", () => followRefunds());
}
