// GET /api/v2/ledger/entries (API.md "Ledger and balances"): the merchant's entries newest first, with their postings,
// by sequence cursor; `from`/`to` are Africa/Lagos days, inclusive, by postedAt.
import { and, asc, desc, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import { readSnapshot, type Db } from "../../db/client";
import { ledgerEntries, ledgerPostings, type LedgerEntryRow } from "../../db/schema";
import { DAY_MS, dayStartOfDate } from "../payments/calendar";
import { formatKobo } from "../money";
import type { Scope } from "../merchants/scope";
import { entrySubject } from "./chain";
import { daysInOrder, lagosDay, pageLimit } from "../query-fields";

// Fields API.md does not name are ignored, as everywhere in the API; a query string's limit is digits, not "1e2".
export const entriesQuery = z
  .object({
    from: lagosDay.optional(),
    to: lagosDay.optional(),
    cursor: z
      .string({ error: "must be a nextCursor from a previous page" })
      .regex(/^[1-9]\d{0,15}$/, "must be a nextCursor from a previous page")
      .optional(),
    limit: pageLimit(500).optional(),
    paymentReference: z
      .string({ error: "must be a paymentReference, 1 to 64 characters" })
      .min(1, "must be a paymentReference, 1 to 64 characters")
      .max(64, "must be a paymentReference, 1 to 64 characters")
      .optional(),
  })
  .refine(...daysInOrder);
export type EntriesQuery = z.output<typeof entriesQuery>;

export type EntryView = ReturnType<typeof entryView>;

function entryView(e: LedgerEntryRow, postings: { account: string; amountKobo: number }[]) {
  return {
    entryId: e.id,
    sequence: e.sequence,
    ...entrySubject(e),
    postedAt: new Date(e.postedAt).toISOString(),
    postings: postings.map((p) => ({ account: p.account, amount: formatKobo(p.amountKobo) })),
    hash: e.hash,
  };
}

/** The postings of these entries, in line order: one read for a page of entries (none asked, none read). */
export async function postingsOf(q: Db, entryIds: string[]) {
  if (!entryIds.length) return [];
  return q.select().from(ledgerPostings).where(inArray(ledgerPostings.entryId, entryIds)).orderBy(asc(ledgerPostings.line));
}

export async function listEntries({ merchantId, mode }: Scope, q: EntriesQuery) {
  const limit = q.limit ?? 100;
  const where: (SQL | undefined)[] = [eq(ledgerEntries.merchantId, merchantId), eq(ledgerEntries.mode, mode)];
  if (q.from) where.push(gte(ledgerEntries.postedAt, dayStartOfDate(q.from) ?? 0));
  if (q.to) where.push(lt(ledgerEntries.postedAt, (dayStartOfDate(q.to) ?? 0) + DAY_MS));
  if (q.cursor) where.push(lt(ledgerEntries.sequence, Number(q.cursor)));
  if (q.paymentReference) where.push(eq(ledgerEntries.paymentReference, q.paymentReference));
  return readSnapshot(async (q) => {
    const rows = await q
      .select()
      .from(ledgerEntries)
      .where(and(...where))
      .orderBy(desc(ledgerEntries.sequence))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const postings = await postingsOf(
      q,
      page.map((e) => e.id),
    );
    const last = page[page.length - 1];
    return {
      entries: page.map((e) =>
        entryView(
          e,
          postings.filter((p) => p.entryId === e.id),
        ),
      ),
      nextCursor: rows.length > limit && last ? String(last.sequence) : null,
    };
  });
}
