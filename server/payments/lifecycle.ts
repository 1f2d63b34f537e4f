// The state machine (API.md "Lifecycle"): the only code that changes a payment's status or money.
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { write, db, type Tx } from "../../db/client";
import { payments, type PaymentRow, type RefundRow } from "../../db/schema";
import { ApiError } from "../api-error";
import { recordEvent } from "./events";
import { formatKobo } from "../money";
import { isOpen } from "./status";
import { clock } from "../clock";
import { bookCredit, bookRefund } from "../books/payment-entries";
import type { Scope } from "../merchants/scope";

export type MoveOptions = { publish?: boolean };

async function save(tx: Tx, p: PaymentRow): Promise<PaymentRow> {
  await tx
    .update(payments)
    .set({
      status: p.status,
      amountPaidKobo: p.amountPaidKobo,
      amountToRefundKobo: p.amountToRefundKobo,
      feeKobo: p.feeKobo,
      paidAt: p.paidAt,
      updatedAt: p.updatedAt,
      // Closed, there is nothing left to ask its provider: the requery schedule ends with the state that closed it.
      ...(isOpen(p.status) ? {} : { nextRequeryAt: null }),
    })
    .where(eq(payments.id, p.id));
  return isOpen(p.status) ? p : { ...p, nextRequeryAt: null };
}

/** PENDING/PARTIALLY_PAID past expiresAt → EXPIRED, once: callers hold the write lock and re-read the row. */
export async function expireInTx(tx: Tx, p: PaymentRow, now: number, opts: MoveOptions, providerSaysExpired = false): Promise<PaymentRow> {
  if (!isOpen(p.status) || now < p.expiresAt) return p;
  // A live payment's provider's time decides (API.md "Which time decides"): Owo's clock alone never expires one
  // whose provider has not answered since it ran out; the requery loop asks first.
  if (!providerSaysExpired && p.providerAccountId !== null && (p.lastProviderAnswerAt ?? 0) < p.expiresAt) return p;
  const expired = await save(tx, { ...p, status: "EXPIRED", updatedAt: now });
  return recordEvent(tx, expired, "expired", now, { publish: opts.publish });
}

export async function creditInTx(
  tx: Tx,
  p: PaymentRow,
  amount: number,
  feeKobo: number,
  now: number,
  detail: Record<string, unknown>,
  opts: MoveOptions,
): Promise<PaymentRow> {
  // The books move in this same transaction, last, since from there to commit every other writer of the merchant's
  // books waits (db/client.ts joinQueue): a crash keeps the credit and its entry, or neither.
  const late = !isOpen(p.status);
  const charged = p.feeKobo + feeKobo;
  if (late) {
    // Money after close never moves the payment; it is owed back to the customer.
    const owed = await save(tx, { ...p, amountToRefundKobo: p.amountToRefundKobo + amount, feeKobo: charged, updatedAt: now });
    const told = await recordEvent(tx, owed, "refund_due", now, { amountKobo: amount, detail, publish: opts.publish });
    await bookCredit(tx, p, amount, feeKobo, late, now);
    return told;
  }
  const paid = p.amountPaidKobo + amount;
  const done = paid >= p.amountKobo;
  const moved = await save(tx, {
    ...p,
    amountPaidKobo: paid,
    feeKobo: charged,
    status: done ? "SUCCESSFUL" : "PARTIALLY_PAID",
    paidAt: done ? now : null,
    updatedAt: now,
  });
  const told = await recordEvent(tx, moved, done ? "successful" : "partially_paid", now, {
    amountKobo: amount,
    detail,
    publish: opts.publish,
  });
  await bookCredit(tx, p, amount, feeKobo, late, now);
  return told;
}

export async function declineInTx(
  tx: Tx,
  p: PaymentRow,
  now: number,
  detail: Record<string, unknown>,
  opts: MoveOptions,
): Promise<PaymentRow> {
  // Only a payment with nothing received can fail; a decline for one that has money (or is closed) changes nothing.
  if (p.status !== "PENDING") return p;
  const failed = await save(tx, { ...p, status: "FAILED", updatedAt: now });
  return recordEvent(tx, failed, "failed", now, { detail, publish: opts.publish });
}

/**
 * The merchant calls the payment off: PENDING → CANCELLED, nothing else (API.md "Lifecycle"). No provider documents a
 * void for these charges, so cancel only stops Owo crediting: money that still arrives is refund due (creditInTx).
 * Expiry is applied first, so a payment already past its time reads EXPIRED and is refused.
 */
export async function cancelPayment({ merchantId, mode }: Scope, paymentReference: string, now = clock.now()): Promise<PaymentRow> {
  // The refusal is thrown after the transaction, so an expiry found on the way is kept.
  const outcome = await write(async (tx) => {
    const [found] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.merchantId, merchantId), eq(payments.mode, mode), eq(payments.paymentReference, paymentReference)));
    if (!found) return null;
    const current = await expireInTx(tx, found, now, {});
    if (current.status !== "PENDING") return { cancelled: false, payment: current };
    return {
      cancelled: true,
      payment: await recordEvent(tx, await save(tx, { ...current, status: "CANCELLED", updatedAt: now }), "cancelled", now),
    };
  });
  if (!outcome) throw new ApiError("S404", `No payment with reference ${paymentReference}`);
  if (!outcome.cancelled) {
    throw new ApiError("S15", `Only a pending payment can be cancelled; ${paymentReference} is ${outcome.payment.status}`);
  }
  return outcome.payment;
}

/**
 * A refund settled at its provider: a PROCESSED one is counted in amountRefunded. Refunds never move the payment's
 * status, code or amountToRefund (API.md "Refunds"). Call inside the transaction that settles the refund row.
 */
export async function refundSettledInTx(tx: Tx, p: PaymentRow, refund: RefundRow, now: number): Promise<PaymentRow> {
  const processed = refund.status === "PROCESSED";
  let current = p;
  if (processed) {
    await bookRefund(tx, p, refund, now);
    current = { ...p, amountRefundedKobo: p.amountRefundedKobo + refund.amountKobo, updatedAt: now };
    await tx.update(payments).set({ amountRefundedKobo: current.amountRefundedKobo, updatedAt: now }).where(eq(payments.id, p.id));
  }
  const info = {
    refundReference: refund.refundReference,
    amount: formatKobo(refund.amountKobo),
    status: refund.status,
    reason: refund.reason,
  };
  const detail = { refundReference: refund.refundReference, ...(refund.failureReason ? { failureReason: refund.failureReason } : {}) };
  return recordEvent(tx, current, processed ? "refund_processed" : "refund_failed", now, {
    amountKobo: refund.amountKobo,
    detail,
    refund: info,
  });
}

/** A refund the provider cannot pay back without the customer's bank account: the merchant hears refund.needs_attention. */
export async function refundNeedsAttentionInTx(tx: Tx, p: PaymentRow, refund: RefundRow, now: number): Promise<PaymentRow> {
  return recordEvent(tx, p, "refund_needs_attention", now, {
    amountKobo: refund.amountKobo,
    detail: { refundReference: refund.refundReference },
    refund: {
      refundReference: refund.refundReference,
      amount: formatKobo(refund.amountKobo),
      status: refund.status,
      reason: refund.reason,
    },
  });
}

/** Verify's guarantee: an open payment past its expiry is expired before anyone is told about it. */
export async function expireIfOverdue(p: PaymentRow, now = clock.now(), opts: MoveOptions = {}): Promise<PaymentRow> {
  if (!isOpen(p.status) || now < p.expiresAt) return p;
  return write(async (tx) => {
    const [fresh] = await tx.select().from(payments).where(eq(payments.id, p.id));
    return fresh ? expireInTx(tx, fresh, now, opts) : p;
  });
}

/** The sweeper's pass: every open payment past its expiry, each in its own short transaction. */
export async function expireOverdue(now = clock.now(), limit = 500): Promise<number> {
  const due = await db()
    .select({ id: payments.id })
    .from(payments)
    // Literal statuses so SQLite can use the partial index payments_open_expiry.
    // A reservation still being issued is not a payment anyone was told of yet: it is not expired.
    // A live payment waits for its provider's answer after expiry (the requery loop), so it is not even looked at.
    .where(
      and(
        sql`${payments.status} in ('PENDING', 'PARTIALLY_PAID')`,
        lte(payments.expiresAt, now),
        isNull(payments.reservedAt),
        sql`(${payments.providerAccountId} is null or ${payments.lastProviderAnswerAt} >= ${payments.expiresAt})`,
      ),
    )
    .limit(limit);
  let expired = 0;
  for (const { id } of due) {
    await write(async (tx) => {
      const [p] = await tx.select().from(payments).where(eq(payments.id, id));
      if (p && (await expireInTx(tx, p, now, {})) !== p) expired++;
    });
  }
  return expired;
}
