// The sandbox bank's own books: each credit notice it sent (with the fee it charged, by its published schedule) and
// each refund it took on. It settles from these alone, never from Owo's records, so that reconciliation compares
// two independent accounts of the same money, as it does with a real provider.
import { and, isNull, lte } from "drizzle-orm";
import { db, write } from "../../../db/client";
import { payments, sandboxBankCredits, sandboxBankRefunds } from "../../../db/schema";
import { feeFor, SANDBOX_SCHEDULE } from "../../fees";
import type { BankNotice } from "../connector";
import { issuedFor } from "./numbers";

/** The bank's published schedule (API.md "Fees"), the one rule Owo also charges its credits by (server/fees.ts). */
export function sandboxFeeKobo(creditKobo: number): number {
  return feeFor(SANDBOX_SCHEDULE, creditKobo);
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

/**
 * A credit the bank is told of at Owo's notice door (signed with its secret, not sent by moveCustomerMoney), booked as
 * sent when it arrives, once per transaction id: one the bank sent itself is in its books already. Nothing for a
 * number it never issued (Owo answers that notice 404).
 */
export async function recordToldCredit(notice: BankNotice, arrival: number): Promise<void> {
  await write(async (tx) => {
    const [issued] = await tx
      .select({
        merchantId: payments.merchantId,
        paymentReference: payments.paymentReference,
        issue: payments.issueReference,
        linking: payments.linkingReference,
      })
      .from(payments)
      .where(issuedFor(notice.target));
    if (!issued) return;
    const credit = {
      transactionId: notice.transactionId,
      merchantId: issued.merchantId,
      paymentReference: issued.paymentReference,
      reference: issued.issue ?? issued.linking,
      amountKobo: notice.amountKobo,
      feeKobo: sandboxFeeKobo(notice.amountKobo),
      sentAt: arrival,
      settlementId: null,
    };
    await tx.insert(sandboxBankCredits).values(credit).onConflictDoNothing();
  });
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
