// The state machine (API.md "Lifecycle"): the only code that changes a payment's status or money.
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { write, db, type Tx } from "../../db/client";
import { lockedForUpdate } from "../../db/functions";
import { bankNotices, payments, type Mode, type PaymentRow, type RefundRow } from "../../db/schema";
import { ApiError } from "../api-error";
import { recordEvent } from "./events";
import { formatKobo } from "../money";
import { isOpen } from "./status";
import { clock } from "../clock";
import { bookCredit, bookRefund } from "../books/payment-entries";
import { reversalInTx } from "./chargebacks";
import { feeFor, SANDBOX_SCHEDULE } from "../books/fees";
import { checkAgreedFee } from "../reconciliation/agreed-fees";
import type { BankNotice, ProviderPaymentState, NoticeTarget } from "../providers/connector";

export type NoticeOutcome = { payment: PaymentRow; applied: boolean };
export type MoveOptions = { publish?: boolean };

function targetOf(target: NoticeTarget) {
  const where =
    "accountNumber" in target
      ? eq(payments.accountNumber, target.accountNumber)
      : and(eq(payments.bankCode, target.bankCode), eq(payments.providerReference, target.providerReference));
  // Numbers are the sandbox bank's own: a live payment (provider account set) is out of its reach.
  return and(where, isNull(payments.providerAccountId), isNull(payments.reservedAt));
}

/** The notice's payment, locked until commit (read committed: see applyBankNotice). */
async function findTarget(tx: Tx, target: NoticeTarget): Promise<PaymentRow | undefined> {
  return (await lockedForUpdate(tx.select().from(payments).where(targetOf(target))))[0];
}

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
    })
    .where(eq(payments.id, p.id));
  return p;
}

/** PENDING/PARTIALLY_PAID past expiresAt → EXPIRED, once: callers hold the write lock and re-read the row. */
async function expireInTx(tx: Tx, p: PaymentRow, now: number, opts: MoveOptions, providerSaysExpired = false): Promise<PaymentRow> {
  if (!isOpen(p.status) || now < p.expiresAt) return p;
  // A live payment's provider's time decides (API.md "Which time decides"): Owo's clock alone never expires one
  // whose provider has not answered since it ran out; the requery loop asks first.
  if (!providerSaysExpired && p.providerAccountId !== null && (p.lastProviderAnswerAt ?? 0) < p.expiresAt) return p;
  const expired = await save(tx, { ...p, status: "EXPIRED", updatedAt: now });
  return recordEvent(tx, expired, "expired", now, { publish: opts.publish });
}

async function creditInTx(
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

async function declineInTx(tx: Tx, p: PaymentRow, now: number, detail: Record<string, unknown>, opts: MoveOptions): Promise<PaymentRow> {
  // Only a payment with nothing received can fail; a decline for one that has money (or is closed) changes nothing.
  if (p.status !== "PENDING") return p;
  const failed = await save(tx, { ...p, status: "FAILED", updatedAt: now });
  return recordEvent(tx, failed, "failed", now, { detail, publish: opts.publish });
}

/**
 * Applies a bank's notice exactly once (the provider's transaction id is unique), judging the
 * payment alive or not by the notice's arrival time `now`. Read committed on PostgreSQL: the payment is locked first
 * (every decision is made on it as the last writer left it), the notice's id is unique, and the books are joined
 * last, so writers of one merchant wait for each other only from the posting to commit.
 */
export async function applyBankNotice(notice: BankNotice, now = clock.now(), opts: MoveOptions = {}): Promise<NoticeOutcome> {
  if (!Number.isSafeInteger(notice.amountKobo) || notice.amountKobo < 0 || (notice.kind === "credit" && notice.amountKobo === 0)) {
    throw new ApiError("S5", "Invalid/Missing parameters = amount", [{ field: "amount", message: "must be a positive amount" }]);
  }
  return write(
    async (tx) => {
      const found = await findTarget(tx, notice.target);
      if (!found) throw new ApiError("S404", "No payment was issued for this account or dial code");
      if (notice.kind === "decline" && found.paymentType !== "USSD") {
        throw new ApiError("S5", "Invalid/Missing parameters = type", [{ field: "type", message: "decline applies to USSD debits only" }]);
      }
      const inserted = await tx
        .insert(bankNotices)
        .values({
          provider: notice.provider,
          providerTransactionId: notice.transactionId,
          paymentId: found.id,
          kind: notice.kind,
          amountKobo: notice.amountKobo,
          senderName: notice.senderName ?? null,
          bankTime: notice.bankTime ?? null,
          receivedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: bankNotices.id });
      if (inserted.length === 0) return { payment: found, applied: false };
      const detail = { provider: notice.provider, transactionId: notice.transactionId, senderName: notice.senderName ?? null };
      const current = await expireInTx(tx, found, now, opts);
      const payment =
        notice.kind === "credit"
          ? await creditInTx(tx, current, notice.amountKobo, feeFor(SANDBOX_SCHEDULE, notice.amountKobo), now, detail, opts)
          : await declineInTx(tx, current, now, detail, opts);
      return { payment, applied: true };
    },
    { isolation: "read committed" },
  );
}

/** A live provider's own record of a payment (its answer to a query, which every notice is checked against); a reversed
 * record confirming a resolved dispute also carries what the provider took back (Paystack's refund_amount). */
export type ProviderRecord = ProviderPaymentState & { disputedKobo?: number };

/** `refused`: why the record was not applied at all (it names another currency than the payment's). */
export type ProviderOutcome = { payment: PaymentRow; applied: boolean; refused?: string };

/**
 * The one currency check every provider record passes, from a notice or a requery alike: naira is naira, and a
 * record in dollars is never credited as its number of naira.
 */
export function currencyDisagreement(paymentCurrency: string, ...recorded: string[]): string | null {
  const other = recorded.find((c) => c !== paymentCurrency);
  return other === undefined ? null : `currency: the payment is in ${paymentCurrency}, the provider's record in ${other}`;
}

/**
 * Applies what a live provider's record says, exactly once per `transactionId` (the notice's event id, or a
 * requery's own id), in one transaction. Money is credited as the difference between the provider's total and
 * what Owo already holds, so a notice and a requery telling the same payment never count it twice.
 */
export async function applyProviderRecord(
  paymentId: number,
  record: ProviderRecord,
  via: { provider: string; transactionId: string },
  now = clock.now(),
): Promise<ProviderOutcome> {
  return write(async (tx) => {
    const [found] = await tx.select().from(payments).where(eq(payments.id, paymentId));
    if (!found) throw new ApiError("S404", "No such payment");
    const refused = currencyDisagreement(found.currency, record.currency);
    if (refused) return { payment: found, applied: false, refused };
    await tx.update(payments).set({ lastProviderAnswerAt: now }).where(eq(payments.id, paymentId));
    found.lastProviderAnswerAt = now;
    const received = found.amountPaidKobo + found.amountToRefundKobo;
    const kind =
      record.state === "paid"
        ? "credit"
        : record.state === "failed"
          ? "decline"
          : record.state === "reversed"
            ? "reversal"
            : record.state === "expired"
              ? "expiry"
              : null;
    if (kind === null || (kind === "credit" && record.amountKobo <= received)) return { payment: found, applied: false };
    const at = record.paidAt ?? now;
    const [notice] = await tx
      .insert(bankNotices)
      .values({
        provider: via.provider,
        providerTransactionId: via.transactionId,
        paymentId,
        kind,
        amountKobo: record.amountKobo,
        bankTime: record.paidAt ?? null,
        receivedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: bankNotices.id });
    if (!notice) return { payment: found, applied: false };
    const detail = { provider: found.provider, transactionId: via.transactionId };
    let payment: PaymentRow;
    if (kind === "credit") {
      // The record's fee covers all it holds; this credit carries what the books have not charged yet.
      const fee = Math.max(0, (record.feeKobo ?? 0) - found.feeKobo);
      payment = await creditInTx(tx, await expireInTx(tx, found, at, {}), record.amountKobo - received, fee, at, detail, {});
      await checkAgreedFee(
        tx,
        payment,
        { transactionId: via.transactionId, amountKobo: record.amountKobo, chargedKobo: record.chargedKobo },
        now,
      );
    } else if (kind === "decline") payment = await declineInTx(tx, found, now, detail, {});
    // The provider closed it unpaid on its own clock: Owo's lifetime ends with it.
    else if (kind === "expiry") payment = await expireInTx(tx, found, Math.max(now, found.expiresAt), {}, true);
    else payment = await reversalInTx(tx, found, record, notice.id, now, detail);
    return { payment, applied: payment !== found };
  });
}

/**
 * The merchant calls the payment off: PENDING → CANCELLED, nothing else (API.md "Lifecycle"). No provider documents a
 * void for these charges, so cancel only stops Owo crediting: money that still arrives is refund due (creditInTx).
 * Expiry is applied first, so a payment already past its time reads EXPIRED and is refused.
 */
export async function cancelPayment(merchantId: string, mode: Mode, paymentReference: string, now = clock.now()): Promise<PaymentRow> {
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
