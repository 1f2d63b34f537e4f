// CSV export of a filtered list, streamed in keyset batches so no export ever sits whole in memory.
import { and } from "drizzle-orm";
import { db, dialect } from "../../db/client";
import { payments, type PaymentStatus } from "../../db/schema";
import { keptAndOwedOf } from "../books/payment-books";
import { refundableKoboOf } from "./refunds";
import { lagosWallClock } from "./calendar";
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
  createdInLagos: { title: "Created (Lagos time)", column: payments.createdAt, cell: (v: unknown) => lagosOrBlank(v) },
  paidInLagos: { title: "Paid (Lagos time)", column: payments.paidAt, cell: (v: unknown) => lagosOrBlank(v) },
  id: { title: "", column: payments.id, cell: String },
} as const;

function isoOrBlank(v: unknown): string {
  return typeof v === "number" ? new Date(v).toISOString() : "";
}

function lagosOrBlank(v: unknown): string {
  return typeof v === "number" ? lagosWallClock(v) : "";
}

/** A batch's figures for one row, read for the whole batch at once (its books in two reads, its refunds in one), none a row. */
type Worked = { feeKobo: number; netKobo: number; refundableKobo: number };

/** The payment page's Fee and Net (server/books/payment-books.ts) and what may still be refunded (refunds.ts). */
const WORKED = {
  fee: { title: "Fee (NGN)", cell: (w: Worked) => formatKobo(w.feeKobo) },
  net: { title: "Net (NGN)", cell: (w: Worked) => formatKobo(w.netKobo) },
  refundable: { title: "Refundable (NGN)", cell: (w: Worked) => formatKobo(w.refundableKobo) },
} as const;

type Exported = Exclude<keyof typeof COLUMNS, "id"> | keyof typeof WORKED;

// Fee, net and refundable came later, then the Lagos times: they go last, in that order, so a merchant's sheet that
// reads the columns by position still finds the others where they were.
const LATER: readonly Exported[] = ["fee", "net", "refundable", "createdInLagos", "paidInLagos"];
const EXPORTED: Exported[] = [
  ...(Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).filter(
    (k): k is Exclude<keyof typeof COLUMNS, "id"> => k !== "id" && !LATER.includes(k as Exported),
  ),
  ...LATER,
];

const titleOf = (k: Exported) => (k in WORKED ? WORKED[k as keyof typeof WORKED] : COLUMNS[k as keyof typeof COLUMNS]).title;

/** Each exported column's cell, chosen once: from the row as read, or from its batch's figures. */
const CELLS = EXPORTED.map((k): ((row: Record<string, unknown>, worked: Worked) => string) => {
  if (k in WORKED) {
    const { cell } = WORKED[k as keyof typeof WORKED];
    return (_row, worked) => cell(worked);
  }
  const { cell } = COLUMNS[k as keyof typeof COLUMNS];
  return (row) => cell(row[k] as never);
});

/** The batch's fees, nets and refundable amounts, by payment id. */
async function workedOut(rows: Record<string, unknown>[]): Promise<(row: Record<string, unknown>) => Worked> {
  const kept = rows.map((r) => ({
    id: Number(r.id),
    status: r.status as PaymentStatus,
    amountPaidKobo: Number(r.amountPaidKobo),
    amountToRefundKobo: Number(r.amountToRefundKobo),
  }));
  // A payment nothing arrived for has no entries: its fee and net are 0 without asking the books.
  const money = await keptAndOwedOf(kept.filter((r) => r.amountPaidKobo + r.amountToRefundKobo > 0).map((r) => r.id));
  const refundable = await refundableKoboOf(db(), kept);
  return (row) => {
    const id = Number(row.id);
    return { feeKobo: 0, netKobo: 0, ...money.get(id), refundableKobo: refundable.get(id) ?? 0 };
  };
}

/**
 * One CSV field. Line breaks become spaces so every record is one line (the page counts lines for its progress bar);
 * a leading = + - @ is defused, since a spreadsheet would run a customer-typed "=HYPERLINK(…)" as a formula. A plain
 * negative amount ("-280.00") is a number, which no spreadsheet runs: defused, it became text that sums skipped.
 */
export function csvField(value: string): string {
  const flat = value.replace(/[\r\n]+/g, " ");
  const safe = /^[=+\-@\t]/.test(flat) && !/^-\d+(\.\d+)?$/.test(flat) ? `'${flat}` : flat;
  return /[",]/.test(safe) || safe !== safe.trim() ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const CSV_HEADER = EXPORTED.map((k) => csvField(titleOf(k))).join(",") + "\r\n";

export type PaymentExport = { total: number; chunks: AsyncGenerator<string, void, undefined> };

// SQLite answers in process, so a small batch costs no round trip, and it keeps the thread's peak memory (its statements
// name a batch's ids) inside the export's bound; PostgreSQL pays a round trip for each of a batch's four queries.
const BATCH = { sqlite: 250, postgres: 1000 } as const;

/**
 * The filtered list, newest first: the header, then one chunk per batch, each batch a keyset page (older than the
 * last row sent), so memory holds one batch whatever the size of the export, on either database. Who may ask is
 * export-apart.ts's to check, which runs this in a worker thread of its own.
 */
export async function exportPayments(scope: Scope, filters: PaymentFilters, batchSize: number = BATCH[dialect()]): Promise<PaymentExport> {
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
      const worked = await workedOut(rows);
      yield rows
        .map((row) => {
          const w = worked(row);
          return CELLS.map((cell) => csvField(cell(row, w))).join(",") + "\r\n";
        })
        .join("");
      if (rows.length < batchSize) return;
      after = { createdAt: Number(last.createdAt), id: Number(last.id) };
    }
  }
  return { total, chunks: chunks() };
}
