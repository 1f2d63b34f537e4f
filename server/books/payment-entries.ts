// What a payment's money movements book (API.md "Ledger and balances"): a credit or late credit with its fee, and a
// processed refund. Called by the payments core (server/payments/lifecycle.ts) inside the state change's transaction.
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { ledgerEntries, ledgerPostings, type PaymentRow, type RefundRow } from "../../db/schema";
import { providerAccount } from "./accounts";
import { postEntry } from "./post";

/**
 * Money arriving for a payment: the provider holds it for the merchant, less the fee it charged. Money for an open
 * payment is a sale; money after close (`late`) is owed back to its customer.
 */
export async function bookCredit(tx: Tx, p: PaymentRow, amountKobo: number, feeKobo: number, late: boolean, at: number): Promise<void> {
  const provider = providerAccount(p.providerAccountId);
  await postEntry(tx, {
    merchantId: p.merchantId,
    mode: p.mode,
    kind: late ? "late_credit" : "credit",
    payment: { id: p.id, paymentReference: p.paymentReference },
    postings: [
      { account: provider, amountKobo },
      { account: late ? "refund_due" : "sales", amountKobo: -amountKobo },
      { account: "fees", amountKobo: feeKobo },
      { account: provider, amountKobo: -feeKobo },
    ],
    postedAt: at,
  });
}

/** The sum of one account's postings on a payment's entries (debits − credits). */
async function paymentPostings(tx: Tx, paymentId: number, account: string): Promise<number> {
  const [row] = await tx
    .select({ sum: sql<number | string | null>`sum(${ledgerPostings.amountKobo})` })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(and(eq(ledgerEntries.paymentId, paymentId), eq(ledgerPostings.account, account)));
  return Number(row?.sum ?? 0);
}

/** A refund the provider paid back: out of what it holds, against refund_due first, then the refunds account. */
export async function bookRefund(tx: Tx, p: PaymentRow, refund: RefundRow, at: number): Promise<void> {
  const owed = Math.max(0, Math.min(refund.amountKobo, -(await paymentPostings(tx, p.id, "refund_due"))));
  await postEntry(tx, {
    merchantId: p.merchantId,
    mode: p.mode,
    kind: "refund",
    payment: { id: p.id, paymentReference: p.paymentReference },
    refundReference: refund.refundReference,
    postings: [
      { account: "refund_due", amountKobo: owed },
      { account: "refunds", amountKobo: refund.amountKobo - owed },
      { account: providerAccount(refund.providerAccountId), amountKobo: -refund.amountKobo },
    ],
    postedAt: at,
  });
}

/** Chargebacks already booked on a payment (its postings to the adjustments account). */
export function chargedBack(tx: Tx, paymentId: number): Promise<number> {
  return paymentPostings(tx, paymentId, "adjustments");
}

/** A provider took money back from the merchant for a payment (a chargeback): out of what it holds, an adjustment. */
export async function bookChargeback(tx: Tx, p: PaymentRow, amountKobo: number, at: number): Promise<void> {
  await postEntry(tx, {
    merchantId: p.merchantId,
    mode: p.mode,
    kind: "adjustment",
    reason: "chargeback",
    payment: { id: p.id, paymentReference: p.paymentReference },
    postings: [
      { account: "adjustments", amountKobo },
      { account: providerAccount(p.providerAccountId), amountKobo: -amountKobo },
    ],
    postedAt: at,
  });
}
