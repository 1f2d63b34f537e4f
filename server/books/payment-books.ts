// One payment's part of the books, for its page: its entries with their postings, the fees it bore and what the
// merchant keeps of it (sales − fees − refunds − adjustments: money owed back as refund due is the customer's).
import { and, asc, eq, inArray } from "drizzle-orm";
import { db, type Db } from "../../db/client";
import { oneOf } from "../../db/functions";
import { ledgerEntries, ledgerPostings } from "../../db/schema";
import { formatKobo } from "../money";
import { postingsOf } from "./entries";
import { debitOrCredit } from "./debit-credit";

/**
 * The totals of `accounts` on each payment's entries (debits positive, credits negative), by payment id. Their entries
 * by the ledger_entries_payment index, then those entries' postings by the postings' entry index: the cost follows the
 * payments asked about, not the ledger (one joined query let PostgreSQL scan every posting each time).
 */
async function accountTotalsOf(paymentIds: number[], accounts: string[]): Promise<Map<number, Map<string, number>>> {
  const entries = paymentIds.length
    ? await db()
        .select({ id: ledgerEntries.id, paymentId: ledgerEntries.paymentId })
        .from(ledgerEntries)
        .where(oneOf(ledgerEntries.paymentId, paymentIds))
    : [];
  const entryIds = entries.map((e) => e.id);
  const postings = entryIds.length
    ? await db()
        .select({ entryId: ledgerPostings.entryId, account: ledgerPostings.account, kobo: ledgerPostings.amountKobo })
        .from(ledgerPostings)
        .where(and(oneOf(ledgerPostings.entryId, entryIds), inArray(ledgerPostings.account, accounts)))
    : [];
  const paymentOf = new Map(entries.map((e) => [e.id, Number(e.paymentId)]));
  const totals = new Map<number, Map<string, number>>();
  for (const p of postings) {
    const paymentId = paymentOf.get(p.entryId) ?? 0;
    const of = totals.get(paymentId) ?? new Map<string, number>();
    of.set(p.account, (of.get(p.account) ?? 0) + Number(p.kobo));
    totals.set(paymentId, of);
  }
  return totals;
}

/** Late money of a payment not yet paid back (what refund_due holds for it), for its customer's checkout. */
export async function owedBackKobo(paymentId: number): Promise<number> {
  const totals = await accountTotalsOf([paymentId], ["refund_due"]);
  // refund_due is credit-normal: what is owed shows as credits, so negative sums.
  return -(totals.get(paymentId)?.get("refund_due") ?? 0);
}

/** What the merchant keeps of a payment, from the totals of its postings by account (debits positive, credits negative). */
function keptOf(total: (account: string) => number): { feeKobo: number; netKobo: number } {
  const feeKobo = total("fees");
  // A provider's deduction booked on this payment (a chargeback) is gone from what the merchant keeps too.
  return { feeKobo, netKobo: -total("sales") - feeKobo - total("refunds") - total("adjustments") };
}

/**
 * Many payments' fee and net as their pages show them (paymentBooks), and their late money not yet paid back, by
 * payment id, in one read of their books: for a list page, or a CSV export's batch.
 */
export async function keptAndOwedOf(
  paymentIds: number[],
): Promise<Map<number, { feeKobo: number; netKobo: number; owedBackKobo: number }>> {
  const totals = await accountTotalsOf(paymentIds, ["sales", "fees", "refunds", "adjustments", "refund_due"]);
  return new Map(
    paymentIds.map((id) => {
      const total = (account: string) => totals.get(id)?.get(account) ?? 0;
      return [id, { ...keptOf(total), owedBackKobo: -total("refund_due") }];
    }),
  );
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
        .map((p) => debitOrCredit({ account: p.account, amount: formatKobo(Number(p.amountKobo)) })),
    })),
  };
}
