// CSV export of a filtered list, streamed in keyset batches so no export ever sits whole in memory.
import { and, is, Placeholder, sql } from "drizzle-orm";
import { db, sqlite } from "../../db/client";
import { payments, type Mode } from "../../db/schema";
import { countPayments, filterWhere, newestFirst, olderThan, type PaymentFilters } from "./history";
import { formatKobo } from "./money";

const COLUMNS = {
  createdAt: { title: "Created (UTC)", column: payments.createdAt, cell: (v: unknown) => isoOrBlank(v) },
  paymentReference: { title: "Payment reference", column: payments.paymentReference, cell: String },
  linkingReference: { title: "Linking reference", column: payments.linkingReference, cell: String },
  paymentType: { title: "Channel", column: payments.paymentType, cell: (v: unknown) => (v === null ? "" : String(v)) },
  status: { title: "Status", column: payments.status, cell: String },
  amountKobo: { title: "Amount (NGN)", column: payments.amountKobo, cell: (v: unknown) => formatKobo(Number(v)) },
  amountPaidKobo: { title: "Amount paid (NGN)", column: payments.amountPaidKobo, cell: (v: unknown) => formatKobo(Number(v)) },
  amountToRefundKobo: { title: "Amount to refund (NGN)", column: payments.amountToRefundKobo, cell: (v: unknown) => formatKobo(Number(v)) },
  amountRefundedKobo: { title: "Amount refunded (NGN)", column: payments.amountRefundedKobo, cell: (v: unknown) => formatKobo(Number(v)) },
  fullName: { title: "Customer name", column: payments.fullName, cell: String },
  email: { title: "Customer e-mail", column: payments.email, cell: String },
  mobileNumber: { title: "Customer mobile", column: payments.mobileNumber, cell: String },
  dialCode: { title: "Dial code", column: payments.dialCode, cell: (v: unknown) => (v === null ? "" : String(v)) },
  accountNumber: { title: "Account number", column: payments.accountNumber, cell: (v: unknown) => (v === null ? "" : String(v)) },
  source: { title: "Source", column: payments.source, cell: String },
  paidAt: { title: "Paid (UTC)", column: payments.paidAt, cell: (v: unknown) => isoOrBlank(v) },
  expiresAt: { title: "Expires (UTC)", column: payments.expiresAt, cell: (v: unknown) => isoOrBlank(v) },
  id: { title: "", column: payments.id, cell: String },
} as const;

function isoOrBlank(v: unknown): string {
  return typeof v === "number" ? new Date(v).toISOString() : "";
}

const EXPORTED = (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).filter((k) => k !== "id");

/**
 * One CSV field. Line breaks become spaces so every record is one line (the page counts lines for its progress bar);
 * a leading = + - @ is defused, since a spreadsheet would run a customer-typed "=HYPERLINK(…)" as a formula.
 */
export function csvField(value: string): string {
  const flat = value.replace(/[\r\n]+/g, " ");
  const safe = /^[=+\-@\t]/.test(flat) ? `'${flat}` : flat;
  return /[",]/.test(safe) || safe !== safe.trim() ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const CSV_HEADER = EXPORTED.map((k) => csvField(COLUMNS[k].title)).join(",") + "\r\n";

export type PaymentExport = { total: number; chunks: Generator<string, void, undefined> };

/**
 * The filtered list, newest first: the header, then one chunk per batch. Each batch walks a prepared statement's
 * `.iterate()` to the end before yielding, because the one connection cannot serve other requests mid-iteration.
 */
export function exportPayments(merchantId: string, mode: Mode, filters: PaymentFilters, batchSize = 1000): PaymentExport {
  const query = db()
    .select(Object.fromEntries(Object.entries(COLUMNS).map(([k, c]) => [k, c.column])))
    .from(payments)
    .where(and(filterWhere(merchantId, mode, filters), olderThan({ createdAt: sql.placeholder("createdAt"), id: sql.placeholder("id") })))
    .orderBy(...newestFirst)
    .limit(batchSize)
    .toSQL();
  const statement = sqlite().prepare(query.sql);
  const keys = Object.keys(COLUMNS) as (keyof typeof COLUMNS)[];
  // Drizzle selects in key order; raw rows keep that order and avoid building an object per row.
  statement.raw(true);
  const cells = EXPORTED.map((k) => [keys.indexOf(k), COLUMNS[k].cell] as const);
  const total = countPayments(merchantId, mode, filters);

  function* chunks(): Generator<string, void, undefined> {
    yield CSV_HEADER;
    let after = { createdAt: Number.MAX_SAFE_INTEGER, id: Number.MAX_SAFE_INTEGER };
    for (;;) {
      const params = query.params.map((p) => (is(p, Placeholder) ? after[p.name as keyof typeof after] : p));
      const lines: string[] = [];
      let last: unknown[] | null = null;
      for (const row of statement.iterate(...params) as Iterable<unknown[]>) {
        lines.push(cells.map(([i, cell]) => csvField(cell(row[i]))).join(",") + "\r\n");
        last = row;
      }
      if (!last) return;
      yield lines.join("");
      if (lines.length < batchSize) return;
      after = { createdAt: Number(last[keys.indexOf("createdAt")]), id: Number(last[keys.indexOf("id")]) };
    }
  }
  return { total, chunks: chunks() };
}
