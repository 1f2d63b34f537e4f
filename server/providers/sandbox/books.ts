// The sandbox bank's own books: each credit notice it sent (with the fee it charged, by its published schedule) and
// each refund it took on. It settles from these alone, never from Owo's records, so that reconciliation compares
// two independent accounts of the same money, as it does with a real provider.
import { and, isNull, lte } from "drizzle-orm";
import { db, write } from "../../../db/client";
import { sandboxBankCredits, sandboxBankRefunds } from "../../../db/schema";

/**
 * API.md "Fees": 1.5% of the credit, plus ₦100 when the credit is ₦2,500.00 or more, capped at ₦2,000.00, rounded
 * half up to the kobo. Integer arithmetic throughout: 15 ‰ of kobo, +500 before the floor is "half up".
 */
export function sandboxFeeKobo(creditKobo: number): number {
  const percent = Math.floor((creditKobo * 15 + 500) / 1000);
  return Math.min(percent + (creditKobo >= 250_000 ? 10_000 : 0), 200_000);
}

export type SentCredit = {
  transactionId: string;
  merchantId: string;
  paymentReference: string;
  reference: string;
  amountKobo: number;
  sentAt: number;
};

/** Written before the notice leaves: the customer's money is with the bank whether or not Owo applies the notice. */
export async function recordSentCredit(credit: SentCredit): Promise<void> {
  await write((tx) => tx.insert(sandboxBankCredits).values({ ...credit, feeKobo: sandboxFeeKobo(credit.amountKobo), settlementId: null }));
}

export async function recordRefund(refund: { refundId: string; reference: string; amountKobo: number; paidAt: number; declined: boolean }) {
  await write((tx) => tx.insert(sandboxBankRefunds).values({ ...refund, settlementId: null }));
}

/** Merchants the bank holds credits for sent by `upTo` and not yet settled: the daily settlement's round. */
export async function merchantsWithUnsettledCredits(upTo: number): Promise<string[]> {
  const rows = await db()
    .selectDistinct({ merchantId: sandboxBankCredits.merchantId })
    .from(sandboxBankCredits)
    .where(and(isNull(sandboxBankCredits.settlementId), lte(sandboxBankCredits.sentAt, upTo)));
  return rows.map((r) => r.merchantId);
}
