// Inbound notices at a provider account's URL (API.md "Live mode"): the signature first (401, nothing moves), then
// dedupe on the provider's event id, then the provider's own record (a query) must agree with the notice on amount
// and currency before anything is credited. Only payments issued through this very account can move. Every notice,
// refused ones included, is recorded with what Owo did and why: refused ones in aggregate, so a flood of forged
// notices costs a count, not a row each. Queries a notice makes are coalesced per payment, and the door is limited per
// provider account and per client IP (server/limits), so forged notices cannot make Owo hammer the provider.
// A provider that asks for an acknowledgement body (SeerBit's X-Expected-Ack-Reference, due within 5 s) is answered
// as soon as the notice parses; its query and what follows run after the answer, since a query can take seconds.
import { and, eq, or, sql } from "drizzle-orm";
import { db, write } from "../../db/client";
import { bankNotices, payments, providerNotices, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import { log } from "../logger";
import { applyProviderRecord, currencyDisagreement } from "./provider-records";
import { REFUND_NOTICE_ANSWERS, refundNoticed } from "./refund-follower";
import { formatKobo } from "../money";
import { settings } from "../settings";
import { accountById } from "../providers/accounts";
import { NoticeRejected, type NoticeReading, type ProviderAccount, type ProviderPaymentState } from "../providers/connector";
import { isOwoReference } from "../providers/own-references";
import { connectorFor } from "../providers/registry";
import { queueForward } from "../webhooks/forwards";

type Outcome = (typeof providerNotices.$inferInsert)["outcome"];
/** `ack`: the body the provider asked to be answered with, instead of Owo's envelope. */
export type NoticeAnswer = { message: string; ack?: Record<string, unknown> };

/**
 * Refused and unconfirmed notices: one row per account, outcome, payment (or none) and hour, counting them, with the
 * latest reason. Counted by one upsert in read committed, so a flood of concurrent forgeries neither adds a row each
 * nor makes the writes retry one another on PostgreSQL.
 */
const AGGREGATED: readonly Outcome[] = ["rejected", "no_payment", "unanswered"];
const AGGREGATE_HOUR_MS = 3_600_000;

async function record(
  providerAccountId: string,
  outcome: Outcome,
  reason: string,
  extra: { eventId?: string | null; paymentId?: number | null; source?: "notice" | "requery" } = {},
  now = clock.now(),
): Promise<void> {
  const source = extra.source ?? "notice";
  const row = {
    providerAccountId,
    outcome,
    reason: reason.slice(0, 500),
    eventId: extra.eventId ?? null,
    paymentId: extra.paymentId ?? null,
    source,
    receivedAt: now,
  };
  if (source !== "notice" || !AGGREGATED.includes(outcome)) {
    await write(async (tx) => tx.insert(providerNotices).values(row));
    return;
  }
  const aggregateKey = `${outcome}:${row.paymentId ?? "-"}:${Math.floor(now / AGGREGATE_HOUR_MS)}`;
  await write(
    async (tx) =>
      tx
        .insert(providerNotices)
        .values({ ...row, aggregateKey })
        .onConflictDoUpdate({
          target: [providerNotices.providerAccountId, providerNotices.aggregateKey],
          set: { count: sql`${providerNotices.count} + 1`, lastReceivedAt: now, reason: row.reason, eventId: row.eventId },
        }),
    { isolation: "read committed" },
  );
}

/** The payment this account issued under Owo's reference or the provider's own; another account's is never found. */
async function issuedPayment(accountId: string, reference?: string, providerReference?: string): Promise<PaymentRow | undefined> {
  const keys = [
    reference ? eq(payments.issueReference, reference) : undefined,
    providerReference ? eq(payments.providerReference, providerReference) : undefined,
  ].filter((k) => k !== undefined);
  if (keys.length === 0) return undefined;
  return (
    await db()
      .select()
      .from(payments)
      .where(and(eq(payments.providerAccountId, accountId), or(...keys)))
  )[0];
}

async function seenBefore(accountId: string, eventId: string): Promise<boolean> {
  return (
    (
      await db()
        .select({ id: bankNotices.id })
        .from(bankNotices)
        .where(and(eq(bankNotices.provider, accountId), eq(bankNotices.providerTransactionId, eventId)))
    )[0] !== undefined
  );
}

/** The provider's own record of the payment, bounded by OWO_PROVIDER_TIMEOUT_MS. */
export function queryProvider(account: ProviderAccount, p: PaymentRow): Promise<ProviderPaymentState> {
  return connectorFor(account.provider).query(account, p.issueReference ?? "", AbortSignal.timeout(settings().providerTimeoutMs));
}

const asking = new Map<string, Promise<ProviderPaymentState>>();
let waiting = 0;

/** Notices naming one payment at once share one question to the provider: a burst of them is one query, not many. */
function queryOnce(account: ProviderAccount, p: PaymentRow): Promise<ProviderPaymentState> {
  const key = `${account.id}:${p.id}`;
  let query = asking.get(key);
  if (!query) {
    query = queryProvider(account, p).finally(() => asking.delete(key));
    asking.set(key, query);
  }
  waiting++;
  return query.finally(() => waiting--);
}

/** How many notices wait on a provider's answer now: a test holds the provider until a burst has all joined its question. */
export function noticesWaiting(): number {
  return waiting;
}

export async function receiveProviderNotice(
  providerId: string,
  raw: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<NoticeAnswer> {
  const account = await accountById(db(), providerId);
  if (!account) throw new ApiError("S404", "No such provider account");
  const connector = connectorFor(account.provider);
  let reading;
  try {
    reading = connector.readNotice(account, raw, headers);
  } catch (err) {
    if (!(err instanceof NoticeRejected)) throw err;
    await record(account.id, "rejected", `signature: ${err.message}`);
    throw new ApiError("S1", "Notice signature missing or wrong");
  }
  const ack = connector.acknowledgeNotice?.(headers);
  if (!ack) return settleNotice(account, reading, { raw, headers });
  const settling = settleNotice(account, reading, { raw, headers })
    .catch((err: unknown) => log.warn({ err, providerId }, "acknowledged notice not settled; the requery loop will"))
    .finally(() => settlingNotices.delete(settling));
  settlingNotices.add(settling);
  return { message: "Notice acknowledged", ack };
}

/** Acknowledged notices still being confirmed with their provider (tests and shutdown wait on them). */
const settlingNotices = new Set<Promise<unknown>>();

export async function noticesSettled(): Promise<void> {
  await Promise.all([...settlingNotices]);
}

type NoticeAccount = NonNullable<Awaited<ReturnType<typeof accountById>>>;
type RawNotice = { raw: Buffer; headers: Record<string, string | string[] | undefined> };

/**
 * A valid notice for a transaction Owo did not initiate (no reference under Owo's prefix, nor a payment this account
 * issued before the prefix; or naming no transaction at all) goes on unchanged to the forwarding URL the merchant set
 * on the account. Without one it is recorded as before.
 */
async function forwardOthers(account: NoticeAccount, reading: NoticeReading, notice: RawNotice): Promise<NoticeAnswer | null> {
  if (!account.forwardUrl) return null;
  if (reading.reference === undefined ? reading.kind !== "ignored" : isOwoReference(account.provider, reading.reference)) return null;
  if (await issuedPayment(account.id, reading.reference, reading.kind === "ignored" ? undefined : reading.providerReference)) return null;
  const { merchantId, forwardUrl: url } = account;
  await queueForward({ merchantId, providerAccountId: account.id, url, ...notice, eventId: reading.eventId, reference: reading.reference });
  await record(account.id, "forwarded", `not Owo's (${reading.reference ?? "no transaction named"}): forwarded to ${url}`, {
    eventId: reading.eventId,
  });
  return { message: "Not a transaction of Owo's; forwarded to the merchant's own URL" };
}

/** What a read notice moves, once confirmed by the provider's own record. */
async function settleNotice(account: NoticeAccount, reading: NoticeReading, notice: RawNotice): Promise<NoticeAnswer> {
  const forwarded = await forwardOthers(account, reading, notice);
  if (forwarded) return forwarded;
  if (reading.kind === "ignored") {
    await record(account.id, "ignored", reading.why, { eventId: reading.eventId });
    return { message: `Notice ignored: ${reading.why}` };
  }
  if (reading.kind === "refund") {
    // The refund's own state is asked of the provider before it is applied (refund-follower.ts).
    const { result, paymentId } = await refundNoticed({ provider: account.provider, providerAccountId: account.id }, reading);
    const outcome = result === "no_refund" ? "no_payment" : result;
    const why = result === "rejected" ? "the provider's record does not confirm it" : result.replace("_", " ");
    await record(account.id, outcome, `refund ${reading.refundId ?? reading.providerReference ?? "?"} ${reading.state}: ${why}`, {
      eventId: reading.eventId,
      paymentId,
    });
    return { message: REFUND_NOTICE_ANSWERS[result] };
  }
  const p = await issuedPayment(account.id, reading.reference, reading.providerReference);
  if (!p) {
    // Providers retry anything but a 2xx: a valid notice for no payment of this account is answered and kept.
    await record(
      account.id,
      "no_payment",
      `no payment issued through ${account.id} as ${reading.reference ?? reading.providerReference ?? "?"}`,
      { eventId: reading.eventId },
    );
    return { message: "No payment for this notice; recorded" };
  }
  const ids = { eventId: reading.eventId, paymentId: p.id };
  if (await seenBefore(account.id, reading.eventId)) {
    await record(account.id, "duplicate", "event applied before", ids);
    return { message: "Duplicate notice; applied before" };
  }
  let state: ProviderPaymentState;
  try {
    state = await queryOnce(account, p);
  } catch (err) {
    await record(account.id, "unanswered", `could not confirm with the provider: ${err instanceof Error ? err.message : String(err)}`, ids);
    throw new ApiError("S502", "The provider did not confirm this notice now; send it again later", [
      { field: `provider.${account.provider}`, message: String(err) },
    ]);
  }
  const disagrees =
    currencyDisagreement(p.currency, reading.currency, state.currency) ??
    (reading.outcome === "paid" && state.state !== "paid"
      ? `the provider's record says ${state.state}`
      : reading.outcome === "failed" && state.state !== "failed"
        ? `the notice says failed, the provider's record says ${state.state}`
        : reading.outcome === "reversed" && state.state !== "reversed"
          ? `the notice says reversed, the provider's record says ${state.state}`
          : reading.outcome === "paid" && reading.amountKobo !== (state.chargedKobo ?? state.amountKobo)
            ? `amount: notice ${formatKobo(reading.amountKobo)}, provider's record ${formatKobo(state.chargedKobo ?? state.amountKobo)}`
            : null);
  if (disagrees) {
    // Nothing moves on a notice the provider's record contradicts; the requery loop settles whatever really happened.
    await record(account.id, "rejected", `disagrees with the provider's record: ${disagrees}`, ids);
    return { message: "Notice does not match the provider's record; nothing moved" };
  }
  // A resolved dispute names what was taken back; the transaction's record only that it was reversed.
  const confirmed = reading.outcome === "reversed" ? { ...state, disputedKobo: reading.amountKobo } : state;
  // A chargeback is kept under the provider's own id for it, the key a settlement deducting it carries too.
  const outcome = await applyProviderRecord(p.id, confirmed, { provider: account.id, transactionId: reading.deduction ?? reading.eventId });
  await record(
    account.id,
    outcome.applied ? "applied" : "unchanged",
    outcome.applied ? `provider's record: ${state.state} ${formatKobo(state.amountKobo)}` : "nothing new in the provider's record",
    ids,
  );
  return { message: outcome.applied ? "Notice applied" : "Notice confirmed; nothing new" };
}
