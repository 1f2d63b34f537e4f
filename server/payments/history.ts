// The merchant's payments as a list: keyset pages on (createdAt, id) over filters.ts's filters, each row as verify shows it.
import { and } from "drizzle-orm";
import { z } from "zod";
import { db } from "../../db/client";
import { payments, type PaymentRow } from "../../db/schema";
import { filterWhere, newestFirst, olderThan, type PaymentFilters } from "./filters";
import { keptAndOwedOf } from "../books/payment-books";
import { formatKobo } from "../money";
import { refundableKoboOf } from "./refunds";
import { paymentState, refundMark } from "./state";
import { paymentView } from "./verify";
import type { Scope } from "../merchants/scope";

export const cursorSchema = z.string().regex(/^\d{1,15}\.\d{1,15}$/, "must be a cursor from a previous page's nextCursor");

function encodeCursor(p: PaymentRow): string {
  return `${p.createdAt}.${p.id}`;
}

function decodeCursor(cursor: string): { createdAt: number; id: number } {
  const [createdAt, id] = cursor.split(".").map(Number);
  return { createdAt: createdAt ?? 0, id: id ?? 0 };
}

/** What a row's books say: the fee and net its page shows, and its late money not yet paid back. */
type Listed = { feeKobo: number; netKobo: number; owedBackKobo: number };

/**
 * A list row: verify's payment object with who paid, where it came from, whether its money went back, and the money
 * kept in sales that is the customer's to refund (state.ts refundAdvised; `refundableKobo`: refunds.ts's, for it), and
 * from its books what the merchant keeps of it and the late money still owed back; `books` is null where no money
 * arrived, so there are none.
 */
export function paymentSummary(p: PaymentRow, refundableKobo: number, books: Listed | null) {
  const owedBackKobo = books?.owedBackKobo ?? 0;
  return {
    ...paymentView(p),
    customerName: p.fullName,
    customerEmail: p.email,
    customerMobile: p.mobileNumber,
    source: p.source,
    refunded: refundMark(p),
    // atProvider moves only canRefund, which the list does not show.
    refundAdvised: paymentState(p, { refundableKobo, atProvider: true }).refundAdvised,
    /** Late money still owed back to the customer (the books' refund_due for it); null when none is. */
    owedBack: owedBackKobo > 0 ? formatKobo(owedBackKobo) : null,
    /** Its fee and what the merchant keeps of it, from its books as its page has them; null where nothing arrived. */
    kept: books ? { fee: formatKobo(books.feeKobo), net: formatKobo(books.netKobo) } : null,
  };
}
export type PaymentSummary = Awaited<ReturnType<typeof paymentSummary>>;

export const PAGE_LIMITS = { default: 50, max: 200 };

export async function listPayments(
  scope: Scope,
  filters: PaymentFilters,
  page: { cursor?: string | null; limit?: number } = {},
): Promise<{ items: PaymentSummary[]; nextCursor: string | null }> {
  const limit = Math.min(page.limit ?? PAGE_LIMITS.default, PAGE_LIMITS.max);
  const rows = await db()
    .select()
    .from(payments)
    .where(and(await filterWhere(scope, filters), page.cursor ? olderThan(decodeCursor(page.cursor)) : undefined))
    .orderBy(...newestFirst())
    .limit(limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  // Refunds only take refundAdvised down, so they are read (in one query) for the page's few rows that have some before
  // them; most pages have none to read.
  const refundable = await refundableKoboOf(
    db(),
    items.filter((p) => paymentState(p).refundAdvised !== null),
  );
  // Only the books know the net and what of the late money a refund paid back (one that came before it paid back
  // sales): read for the page's rows that money arrived for, in one read.
  const books = await keptAndOwedOf(items.filter((p) => p.amountPaidKobo + p.amountToRefundKobo > 0).map((p) => p.id));
  return {
    items: items.map((p) => paymentSummary(p, refundable.get(p.id) ?? 0, books.get(p.id) ?? null)),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}
