// One payment's part of the books, for its page: its entries with their postings, the fees it bore and what the
// merchant keeps of it (sales − fees − refunds − adjustments: money owed back as refund due is the customer's).
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { db, type Db } from "../../db/client";
import { ledgerEntries, ledgerPostings } from "../../db/schema";
import { formatKobo } from "../money";
import { postingsOf } from "./entries";
import { postingSides } from "./posting-sides";

/** Late money not yet paid back (what refund_due holds), by payment id, for the given payments, in one query. */
export async function owedBackKoboOf(paymentIds: number[]): Promise<Map<number, number>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await db()
    .select({ paymentId: ledgerEntries.paymentId, sum: sql<number | string | null>`sum(${ledgerPostings.amountKobo})` })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(and(inArray(ledgerEntries.paymentId, paymentIds), eq(ledgerPostings.account, "refund_due")))
    .groupBy(ledgerEntries.paymentId);
  // refund_due is credit-normal: what is owed shows as credits, so negative sums.
  return new Map(rows.map((r) => [Number(r.paymentId), -Number(r.sum ?? 0)]));
}

/** Late money of a payment not yet paid back (what refund_due holds for it), for its customer's checkout. */
export async function owedBackKobo(paymentId: number): Promise<number> {
  return (await owedBackKoboOf([paymentId])).get(paymentId) ?? 0;
}

/** What the merchant keeps of a payment, from the totals of its postings by account (debits positive, credits negative). */
function keptOf(total: (account: string) => number): { feeKobo: number; netKobo: number } {
  const feeKobo = total("fees");
  // A provider's deduction booked on this payment (a chargeback) is gone from what the merchant keeps too.
  return { feeKobo, netKobo: -total("sales") - feeKobo - total("refunds") - total("adjustments") };
}

/**
 * The fee and net of each of many payments, as their pages show them (paymentBooks), in one grouped query over their
 * entries (the ledger_entries_payment index): for the CSV export, a batch at a time. A payment with no entries keeps 0.
 */
export async function feesAndNetOf(paymentIds: number[]): Promise<Map<number, { feeKobo: number; netKobo: number }>> {
  const sums = paymentIds.length
    ? await db()
        .select({
          paymentId: ledgerEntries.paymentId,
          account: ledgerPostings.account,
          kobo: sql<number | string>`sum(${ledgerPostings.amountKobo})`,
        })
        .from(ledgerPostings)
        .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
        .where(
          and(inArray(ledgerEntries.paymentId, paymentIds), inArray(ledgerPostings.account, ["sales", "fees", "refunds", "adjustments"])),
        )
        .groupBy(ledgerEntries.paymentId, ledgerPostings.account)
    : [];
  const byPayment = new Map<number | null, Map<string, number>>();
  for (const s of sums) {
    const accounts = byPayment.get(s.paymentId) ?? new Map<string, number>();
    accounts.set(s.account, Number(s.kobo));
    byPayment.set(s.paymentId, accounts);
  }
  return new Map(paymentIds.map((id) => [id, keptOf((account) => byPayment.get(id)?.get(account) ?? 0)]));
}

export type PaymentBooks = Awaited<ReturnType<typeof paymentBooks>>;

/** Read inside the caller's snapshot (payments/timeline.ts), so the figures agree with the payment beside them. */
export async function paymentBooks(q: Db, paymentId: number) {
  const entries = await q.select().from(ledgerEntries).where(eq(ledgerEntries.paymentId, paymentId)).orderBy(asc(ledgerEntries.sequence));
  const postings = await postingsOf(
    q,
    entries.map((e) => e.id),
  );
  // Debits positive, credits negative (API.md "Ledger and balances").
  const total = (account: string) => postings.filter((p) => p.account === account).reduce((sum, p) => sum + Number(p.amountKobo), 0);
  const { feeKobo, netKobo } = keptOf(total);
  return {
    fee: formatKobo(feeKobo),
    net: formatKobo(netKobo),
    /** What its provider took back from the merchant for it (chargebacks): the adjustments its entries booked. */
    deducted: formatKobo(total("adjustments")),
    /** Late money not yet paid back: what refund_due still holds for this payment. */
    owedBack: formatKobo(-total("refund_due")),
    entries: entries.map((e) => ({
      sequence: e.sequence,
      kind: e.kind,
      reason: e.reason,
      refundReference: e.refundReference,
      settlementId: e.settlementId,
      postedAt: new Date(e.postedAt).toISOString(),
      hash: e.hash,
      postings: postings
        .filter((p) => p.entryId === e.id)
        .map((p) => postingSides({ account: p.account, amount: formatKobo(Number(p.amountKobo)) })),
    })),
  };
}
