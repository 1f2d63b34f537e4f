// Which of a merchant's payments a list or an export covers: the filters, prefix search on the indexed columns, and
// the keyset order on (createdAt, id). A leaf the export thread loads without the list's views.
import { and, desc, eq, gte, inArray, lt, lte, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { db } from "../../db/client";
import { unindexed } from "../../db/functions";
import { declaredTables, payments } from "../../db/schema";
import { zodFieldErrors, type FieldError } from "../api-error";
import { DAY_MS, dayStartOfDate } from "./calendar";
import { PAYMENT_TYPES } from "./initiate-schema";
import { parseAmount } from "../money";
import type { Scope } from "../merchants/scope";

/** A condition no row meets, in words both databases take as a boolean. */
const NOTHING = sql`1 = 0`;

export const PAYMENT_STATUSES = declaredTables.payments.status.enumValues;
export const PAYMENT_SOURCES = declaredTables.payments.source.enumValues;

const day = z.string().refine((v) => dayStartOfDate(v) !== null, "must be a date, e.g. 2026-11-21");
const naira = z.string().refine((v) => parseAmount(v) !== null, 'must be naira with at most 2 decimals, e.g. "1500.00"');

/** What the list, the export and the API accept; dates are Lagos days, both ends included. */
export const paymentFilters = z.object({
  status: z.enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(", ")}` }).optional(),
  channel: z.enum(PAYMENT_TYPES, { error: 'must be "USSD" or "TRANSFER"' }).optional(),
  source: z.enum(PAYMENT_SOURCES, { error: `must be one of ${PAYMENT_SOURCES.join(", ")}` }).optional(),
  from: day.optional(),
  to: day.optional(),
  minAmount: naira.optional(),
  maxAmount: naira.optional(),
  /** Exact or leading part of a paymentReference, linkingReference, customer e-mail or phone number. */
  search: z.string().trim().max(254, "must be at most 254 characters").optional(),
});
export type PaymentFilters = z.infer<typeof paymentFilters>;
export const FILTER_NAMES = Object.keys(paymentFilters.shape) as (keyof PaymentFilters)[];

/** Filters from a query string (the dashboard's URL, the export link): blanks mean "any". */
export function filtersFromQuery(query: URLSearchParams): { filters: PaymentFilters; errors: FieldError[] } {
  const raw: Record<string, string> = {};
  for (const name of FILTER_NAMES) {
    const value = query.get(name)?.trim();
    if (value) raw[name] = value;
  }
  const parsed = paymentFilters.safeParse(raw);
  if (parsed.success) return { filters: parsed.data, errors: [] };
  const errors = zodFieldErrors(parsed.error);
  const kept = Object.fromEntries(Object.entries(raw).filter(([name]) => !errors.some((e) => e.field === name)));
  return { filters: paymentFilters.parse(kept), errors };
}

// Range, not LIKE: `>= q AND < q+'\uffff'` walks the column's index; LIKE 'q%' would not (case-insensitive by default).
function startsWith(column: SQLiteColumn, prefix: string): SQL | undefined {
  return and(gte(column, prefix), lt(column, `${prefix}\uffff`));
}

// Beyond this many matches a search term is broad (a prefix most rows share), and reading in date order finds a page sooner.
const NARROW_SEARCH = 2000;

/**
 * Where a search may look. A narrow term is answered from the four indexes at once (each branch carries the merchant
 * and mode so SQLite unions the index ranges), and the page is then sorted from those rows alone; a broad term instead
 * filters the walk down the date index. The unary `+` keeps merchant and mode off the global linkingReference index.
 */
async function searchScope({ merchantId, mode }: Scope, term: string): Promise<SQL> {
  const own = and(eq(payments.merchantId, merchantId), eq(payments.mode, mode));
  const perMerchant = [payments.paymentReference, payments.email, payments.mobileNumber].map((c) => startsWith(c, term));
  // People type e-mail addresses in any case; most are stored lower-case.
  if (term.toLowerCase() !== term) perMerchant.push(startsWith(payments.email, term.toLowerCase()));
  const linking = startsWith(payments.linkingReference, term);
  const ids = await db()
    .select({ id: payments.id })
    .from(payments)
    .where(
      or(
        ...perMerchant.map((range) => and(own, range)),
        and(linking, sql`${unindexed(payments.merchantId)} = ${merchantId}`, sql`${unindexed(payments.mode)} = ${mode}`),
      ),
    )
    .limit(NARROW_SEARCH + 1);
  if (ids.length > NARROW_SEARCH) return and(own, or(linking, ...perMerchant)) ?? NOTHING;
  return ids.length === 0
    ? NOTHING
    : inArray(
        payments.id,
        ids.map((r) => r.id),
      );
}

/** Everything but the page: the same condition serves the list, the count and the CSV export. */
export async function filterWhere(scope: Scope, f: PaymentFilters): Promise<SQL> {
  const from = f.from === undefined ? null : dayStartOfDate(f.from);
  const to = f.to === undefined ? null : dayStartOfDate(f.to);
  const min = f.minAmount === undefined ? null : parseAmount(f.minAmount);
  const max = f.maxAmount === undefined ? null : parseAmount(f.maxAmount);
  const where = and(
    f.search ? await searchScope(scope, f.search) : and(eq(payments.merchantId, scope.merchantId), eq(payments.mode, scope.mode)),
    f.status ? eq(payments.status, f.status) : undefined,
    f.channel ? eq(payments.paymentType, f.channel) : undefined,
    f.source ? eq(payments.source, f.source) : undefined,
    from !== null ? gte(payments.createdAt, from) : undefined,
    to !== null ? lt(payments.createdAt, to + DAY_MS) : undefined,
    min !== null ? gte(payments.amountKobo, min) : undefined,
    max !== null ? lte(payments.amountKobo, max) : undefined,
  );
  if (!where) throw new Error("unreachable: the scope always constrains the list");
  return where;
}

/** Keyset position; a prepared statement (the export) passes placeholders and binds each batch's position. */
export type Position = { createdAt: number | Placeholder; id: number | Placeholder };

/** Strictly after `p` in newest-first order; a row value, so SQLite seeks the payments_list index. */
export function olderThan(p: Position): SQL {
  return sql`(${payments.createdAt}, ${payments.id}) < (${p.createdAt}, ${p.id})`;
}

export const newestFirst = () => [desc(payments.createdAt), desc(payments.id)];

export async function countPayments(scope: Scope, filters: PaymentFilters): Promise<number> {
  return (
    (
      await db()
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(payments)
        .where(await filterWhere(scope, filters))
    )[0]?.n ?? 0
  );
}
