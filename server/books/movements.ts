// What moved on the merchant's books over a period, as SQL: the pieces the period readers share (net volume, the
// balance history, the reconciliation report), so each sums the postings of the same entries the same way.
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { ledgerEntries, ledgerPostings } from "../../db/schema";
import type { Scope } from "../merchants/scope";

/**
 * The scope's entries posted at or after `from` and before `before` (either bound may be left open): the
 * ledger_entries_posted index.
 */
export function postedIn({ merchantId, mode }: Scope, { from, before }: { from?: number; before?: number }) {
  return and(
    eq(ledgerEntries.merchantId, merchantId),
    eq(ledgerEntries.mode, mode),
    from === undefined ? undefined : gte(ledgerEntries.postedAt, from),
    before === undefined ? undefined : lt(ledgerEntries.postedAt, before),
  );
}

/** Debits and credits summed apart, each as a positive amount (postings hold debits positive, credits negative). */
export function postingSides() {
  return {
    debits: sql<number | string>`sum(case when ${ledgerPostings.amountKobo} > 0 then ${ledgerPostings.amountKobo} else 0 end)`,
    credits: sql<number | string>`sum(case when ${ledgerPostings.amountKobo} < 0 then -${ledgerPostings.amountKobo} else 0 end)`,
  };
}

/** Which of the consecutive spans of `size` ms from `since` an entry was posted in (0, 1, …). */
export function postedSpan(since: number, size: number) {
  // Whole numbers written into the SQL, not bound: PostgreSQL matches GROUP BY to the select list by text, and two
  // bindings of one value are two parameters to it.
  return sql<number>`((${ledgerEntries.postedAt} - ${sql.raw(String(Math.trunc(since)))}) / ${sql.raw(String(Math.trunc(size)))})`.mapWith(
    Number,
  );
}
