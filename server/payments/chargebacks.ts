// Chargebacks (API.md "Ledger and balances"): money a provider took back from the merchant for a payment it had
// credited. Each is booked once, under the provider's own id for it (a bank notice of kind `reversal`, unique per
// provider account and id), whether the provider's notice or a settlement deducting it tells Owo first; the notice row
// keeps what was booked on the payment, so a settlement deducting more books only the rest (../settlements/booking.ts).
import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { lockedForUpdate } from "../../db/functions";
import { bankNotices, payments, type Mode, type PaymentRow } from "../../db/schema";
import { bookChargeback, chargedBack } from "../books/payment-entries";
import { recordEvent } from "./events";

/** What the provider's record says it took back: a resolved dispute's own amount, or only that the payment was reversed. */
export type Reversal = { amountKobo: number; disputedKobo?: number };

/**
 * The provider reversed the payment; `noticeId` is the bank notice that recorded it once. After Owo credited the
 * payment, that is a chargeback, booked as an adjustment: a dispute's own amount, or, seen only on the transaction,
 * what is left of the payment, never twice; at most what the payment still holds. Before any credit it is money the
 * provider sent back by itself (a transfer of the wrong amount): history, never refund due. Status and amounts do not move.
 */
export async function reversalInTx(
  tx: Tx,
  p: PaymentRow,
  record: Reversal,
  noticeId: number,
  now: number,
  detail: Record<string, unknown>,
): Promise<PaymentRow> {
  const already = await chargedBack(tx, p.id);
  const held = Math.max(0, p.amountPaidKobo + p.amountToRefundKobo - p.amountRefundedKobo - already);
  const taken =
    record.disputedKobo !== undefined ? Math.min(record.disputedKobo, held) : already > 0 ? 0 : Math.min(record.amountKobo, held);
  if (taken > 0) await bookChargeback(tx, p, taken, now);
  await tx.update(bankNotices).set({ amountKobo: taken }).where(eq(bankNotices.id, noticeId));
  return recordEvent(tx, p, "reversed", now, {
    amountKobo: taken > 0 ? taken : record.amountKobo,
    detail: taken > 0 ? { ...detail, reason: "chargeback" } : detail,
    publish: false,
  });
}

export type SettledChargeback = {
  merchantId: string;
  mode: Mode;
  providerAccountId: string;
  paymentReference: string;
  /** The provider's id for it (the line's providerTransactionId), as its notice carries it. */
  deduction: string;
  amountKobo: number;
  settlementId: string;
};

/** A settlement deducted a chargeback of one of Owo's payments: booked on the payment unless its notice already was. */
export async function bookSettledChargeback(tx: Tx, c: SettledChargeback, now: number): Promise<void> {
  const [p] = await lockedForUpdate(
    tx
      .select()
      .from(payments)
      .where(and(eq(payments.merchantId, c.merchantId), eq(payments.mode, c.mode), eq(payments.paymentReference, c.paymentReference))),
  );
  if (!p) return;
  const [notice] = await tx
    .insert(bankNotices)
    .values({ provider: c.providerAccountId, providerTransactionId: c.deduction, paymentId: p.id, kind: "reversal", receivedAt: now })
    .onConflictDoNothing()
    .returning({ id: bankNotices.id });
  if (!notice) return;
  await reversalInTx(tx, p, { amountKobo: c.amountKobo, disputedKobo: c.amountKobo }, notice.id, now, {
    provider: c.providerAccountId,
    transactionId: c.deduction,
    settlementId: c.settlementId,
  });
}

/** What was booked on payments under each of these deduction ids of one provider account. */
export async function bookedDeductions(tx: Tx, providerAccountId: string, deductions: string[]): Promise<Map<string, number>> {
  const booked = new Map<string, number>();
  for (let i = 0; i < deductions.length; i += 500) {
    const rows = await tx
      .select({ deduction: bankNotices.providerTransactionId, amountKobo: bankNotices.amountKobo })
      .from(bankNotices)
      .where(
        and(
          eq(bankNotices.provider, providerAccountId),
          eq(bankNotices.kind, "reversal"),
          inArray(bankNotices.providerTransactionId, deductions.slice(i, i + 500)),
        ),
      );
    for (const r of rows) booked.set(r.deduction, r.amountKobo);
  }
  return booked;
}
