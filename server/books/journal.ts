// The ledger entries as a journal CSV for the merchant's accountant: one line per posting, oldest first, with its
// entry's sequence, kind, references and hash, for one merchant and mode and optionally Lagos days `from`/`to`.
// Streamed in batches of entries by sequence, so no export ever sits whole in memory.
import { and, asc, eq, gt, gte, inArray, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import { db } from "../../db/client";
import { ledgerEntries, ledgerPostings } from "../../db/schema";
import { parseFields } from "../api-error";
import type { Caller } from "../auth/caller";
import { assertCan } from "../auth/permissions";
import { DAY_MS, dayStartOfDate, lagosWallClock } from "../payments/calendar";
import { csvField } from "../payments/export";
import { formatKobo } from "../money";
import { scopeOf, type Scope } from "../merchants/scope";
import { daysInOrder, lagosDay } from "../query-fields";

export const journalQuery = z.object({ from: lagosDay.optional(), to: lagosDay.optional() }).refine(...daysInOrder);
export type JournalQuery = z.output<typeof journalQuery>;

const HEADER = [
  "Posted (UTC)",
  "Sequence",
  "Entry",
  "Kind",
  "Reason",
  "Payment reference",
  "Refund reference",
  "Settlement",
  "Account",
  "Amount (NGN)",
  "Hash",
  // Came after the hash: last, so a sheet that reads the columns by position finds the others where they were.
  "Posted (Lagos time)",
];

export type JournalExport = { chunks: AsyncGenerator<string, void, undefined> };

/** The journal as a person asks for it: anyone who may read the merchant's payments may read its books. */
/** The download's door: the person may read, then the query is parsed, as the REST door parses its own. */
export async function exportJournalFor(caller: Caller, query: unknown): Promise<JournalExport> {
  assertCan(caller, "read");
  return exportJournal(scopeOf(caller), parseFields(journalQuery, query));
}

export async function exportJournal({ merchantId, mode }: Scope, query: JournalQuery, batchSize = 500): Promise<JournalExport> {
  const where: SQL[] = [eq(ledgerEntries.merchantId, merchantId), eq(ledgerEntries.mode, mode)];
  if (query.from) where.push(gte(ledgerEntries.postedAt, dayStartOfDate(query.from) ?? 0));
  if (query.to) where.push(lt(ledgerEntries.postedAt, (dayStartOfDate(query.to) ?? 0) + DAY_MS));

  async function* chunks(): AsyncGenerator<string, void, undefined> {
    yield HEADER.map(csvField).join(",") + "\r\n";
    let after = 0;
    for (;;) {
      const entries = await db()
        .select()
        .from(ledgerEntries)
        .where(and(...where, gt(ledgerEntries.sequence, after)))
        .orderBy(asc(ledgerEntries.sequence))
        .limit(batchSize);
      const last = entries.at(-1);
      if (!last) return;
      const postings = await db()
        .select()
        .from(ledgerPostings)
        .where(
          inArray(
            ledgerPostings.entryId,
            entries.map((e) => e.id),
          ),
        )
        .orderBy(asc(ledgerPostings.line));
      const byEntry = new Map<string, typeof postings>();
      for (const p of postings) byEntry.set(p.entryId, [...(byEntry.get(p.entryId) ?? []), p]);
      const lines: string[] = [];
      for (const e of entries) {
        const fields = [e.kind, e.reason ?? "", e.paymentReference ?? "", e.refundReference ?? "", e.settlementId ?? ""].map(csvField);
        const head = [new Date(e.postedAt).toISOString(), String(e.sequence), e.id, ...fields].join(",");
        // The amount goes out as it is: a credit's leading minus is a number, not a formula csvField should defuse.
        const tail = `${e.hash},${lagosWallClock(e.postedAt)}\r\n`;
        for (const p of byEntry.get(e.id) ?? []) lines.push(`${head},${csvField(p.account)},${formatKobo(p.amountKobo)},${tail}`);
      }
      yield lines.join("");
      if (entries.length < batchSize) return;
      after = last.sequence;
    }
  }
  return { chunks: chunks() };
}
