// The books as a test reads them back: straight from the ledger's tables, never through the readers under test.
import { asc, eq } from "drizzle-orm";
import { db } from "../../db/client";
import { ledgerEntries, ledgerPostings } from "../../db/schema";

/** A settlement's entries on the merchant's books, as `kind account amount` per posting, in the order they were posted. */
export async function settlementPostings(settlementId: string): Promise<string[]> {
  const rows = await db()
    .select({ kind: ledgerEntries.kind, account: ledgerPostings.account, amountKobo: ledgerPostings.amountKobo })
    .from(ledgerEntries)
    .innerJoin(ledgerPostings, eq(ledgerPostings.entryId, ledgerEntries.id))
    .where(eq(ledgerEntries.settlementId, settlementId))
    .orderBy(asc(ledgerEntries.sequence), asc(ledgerPostings.line));
  return rows.map((r) => `${r.kind} ${r.account} ${r.amountKobo}`);
}
