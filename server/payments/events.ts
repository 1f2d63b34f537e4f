// A payment's timeline and the outbox: each move writes one event and, when the merchant must hear of it, one outbox row.
import { countPaymentEvent } from "../metrics/series";
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { prepared, type Tx } from "../../db/client";
import { outbox, paymentEvents, payments, type PaymentRow } from "../../db/schema";
import { publicKeyOf } from "../auth/api-keys";
import { formatKobo } from "../money";
import { STATUS_ANSWER } from "./status";
import { scopeOf } from "../merchants/scope";

/** Each timeline event the merchant hears of, with the name its callback carries; the others stay on the timeline. */
const PUBLISHED = {
  successful: "payment.successful",
  partially_paid: "payment.partially_paid",
  failed: "payment.failed",
  expired: "payment.expired",
  cancelled: "payment.cancelled",
  refund_due: "payment.refund_due",
  refund_processed: "refund.processed",
  refund_failed: "refund.failed",
  refund_needs_attention: "refund.needs_attention",
} as const;
export type PublishedEvent = (typeof PUBLISHED)[keyof typeof PUBLISHED];
export const PUBLISHED_EVENTS = Object.values(PUBLISHED);
export type TimelineEvent =
  keyof typeof PUBLISHED | "initiated" | "channel_chosen" | "refund_requested" | "refund_account_given" | "reversed";

/** What a refund event's callback adds (API.md "Callbacks"). */
export type RefundInfo = { refundReference: string; amount: string; status: string; reason: string };

/** The `data` object of a callback (API.md "Callbacks"); the worker wraps it in notificationItems. */
export async function callbackData(
  tx: Tx,
  p: PaymentRow,
  event: PublishedEvent,
  sequence: number,
  refund?: RefundInfo,
): Promise<Record<string, unknown>> {
  return {
    event,
    sequence,
    paymentReference: p.paymentReference,
    linkingReference: p.linkingReference,
    paymentType: p.paymentType,
    status: p.status,
    code: STATUS_ANSWER[p.status].code,
    amount: formatKobo(p.amountKobo),
    amountPaid: formatKobo(p.amountPaidKobo),
    amountToRefund: formatKobo(p.amountToRefundKobo),
    currency: p.currency,
    mode: p.mode,
    updatedAt: new Date(p.updatedAt).toISOString(),
    fullname: p.fullName,
    email: p.email,
    mobile: p.mobileNumber,
    // SeerBit's notification words, so receivers written for it (shop plugins) work unchanged.
    reference: p.paymentReference,
    gatewayCode: STATUS_ANSWER[p.status].code,
    gatewayMessage: STATUS_ANSWER[p.status].message,
    publicKey: await publicKeyOf(tx, scopeOf(p)),
    provider: p.paymentType === null ? null : p.provider,
    amountRefunded: formatKobo(p.amountRefundedKobo),
    feeAmount: formatKobo(p.feeKobo),
    settlementId: p.settlementId,
    ...(refund ? { refund } : {}),
  };
}

export type RecordOptions = {
  amountKobo?: number | null;
  detail?: Record<string, unknown>;
  /** false for seeded history: the timeline is written but nothing is queued for delivery. */
  publish?: boolean;
  /** Refund events: the refund the callback is about. */
  refund?: RefundInfo;
};

// Every move of every payment writes these two, so they are compiled once (db/client.ts `prepared`); they run in the
// caller's transaction.
const advanceSequence = prepared((tx) =>
  tx
    .update(payments)
    .set({ eventSequence: sql`${sql.placeholder("sequence")}` })
    .where(eq(payments.id, sql.placeholder("id"))),
);
const insertEvent = prepared((tx) =>
  tx.insert(paymentEvents).values({
    paymentId: sql.placeholder("paymentId"),
    sequence: sql.placeholder("sequence"),
    type: sql.placeholder("type"),
    status: sql.placeholder("status"),
    amountKobo: sql.placeholder("amountKobo"),
    detailJson: sql.placeholder("detailJson"),
    createdAt: sql.placeholder("createdAt"),
  }),
);

/** The timeline row of `p`'s event number `p.eventSequence`, as stored. */
export function eventRow(p: PaymentRow, type: TimelineEvent, now: number, opts: RecordOptions = {}): typeof paymentEvents.$inferInsert {
  return {
    paymentId: p.id,
    sequence: p.eventSequence,
    type,
    status: p.status,
    amountKobo: opts.amountKobo ?? null,
    detailJson: JSON.stringify(opts.detail ?? {}),
    createdAt: now,
  };
}

/**
 * Appends the next event to `p`'s timeline (p is the row as it stands after the move) and queues
 * its callback. Call inside the transaction that made the move. Returns the row with its new sequence.
 */
export async function recordEvent(tx: Tx, p: PaymentRow, type: TimelineEvent, now: number, opts: RecordOptions = {}): Promise<PaymentRow> {
  const row = { ...p, eventSequence: p.eventSequence + 1 };
  await advanceSequence(tx, { id: p.id, sequence: row.eventSequence });
  await writeEvent(tx, row, type, now, opts);
  return row;
}

/**
 * Writes `p`'s event number `p.eventSequence` (and queues its callback) for a row that already carries that number: a
 * payment inserted with its first event's number needs no second write to count it.
 */
export async function writeEvent(tx: Tx, p: PaymentRow, type: TimelineEvent, now: number, opts: RecordOptions = {}): Promise<void> {
  const sequence = p.eventSequence;
  countPaymentEvent(type, p.status);
  await insertEvent(tx, eventRow(p, type, now, opts));
  const event = Object.hasOwn(PUBLISHED, type) ? PUBLISHED[type as keyof typeof PUBLISHED] : null;
  if (event && opts.publish !== false) {
    await tx.insert(outbox).values({
      eventId: `evt_${randomBytes(12).toString("hex")}`,
      paymentId: p.id,
      merchantId: p.merchantId,
      mode: p.mode,
      event,
      sequence,
      payloadJson: JSON.stringify(await callbackData(tx, p, event, sequence, opts.refund)),
      createdAt: now,
    });
  }
}
