// CSV export of a filtered list, streamed in keyset batches so no export ever sits whole in memory.
import { and } from "drizzle-orm";
import { db } from "../../db/client";
import { payments } from "../../db/schema";
import { countPayments, filterWhere, newestFirst, olderThan, type PaymentFilters } from "./filters";
import { formatKobo } from "../money";
import type { Scope } from "../merchants/scope";

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

export type PaymentExport = { total: number; chunks: AsyncGenerator<string, void, undefined> };

/**
 * The filtered list, newest first: the header, then one chunk per batch, each batch a keyset page (older than the
 * last row sent), so memory holds one batch whatever the size of the export, on either database. Who may ask is
 * export-apart.ts's to check, which runs this in a worker thread of its own.
 */
export async function exportPayments(scope: Scope, filters: PaymentFilters, batchSize = 1000): Promise<PaymentExport> {
  const where = await filterWhere(scope, filters);
  const selection = Object.fromEntries(Object.entries(COLUMNS).map(([k, c]) => [k, c.column]));
  const total = await countPayments(scope, filters);

  async function* chunks(): AsyncGenerator<string, void, undefined> {
    yield CSV_HEADER;
    let after = { createdAt: Number.MAX_SAFE_INTEGER, id: Number.MAX_SAFE_INTEGER };
    for (;;) {
      const rows: Record<string, unknown>[] = await db()
        .select(selection)
        .from(payments)
        .where(and(where, olderThan(after)))
        .orderBy(...newestFirst())
        .limit(batchSize);
      const last = rows.at(-1);
      if (!last) return;
      yield rows.map((row) => EXPORTED.map((k) => csvField(COLUMNS[k].cell(row[k] as never))).join(",") + "\r\n").join("");
      if (rows.length < batchSize) return;
      after = { createdAt: Number(last.createdAt), id: Number(last.id) };
    }
  }
  return { total, chunks: chunks() };
}
