// Raw SQL over the payments table, derived from db/schema.ts so the seeder and the floor write the rows Owo writes.
import { getTableColumns } from "drizzle-orm";
import { payments } from "../db/schema";

export type PaymentInsert = typeof payments.$inferInsert;

const columns = Object.entries(getTableColumns(payments)).filter(([key]) => key !== "id");

/** `INSERT … VALUES (@paymentReference, …)`: better-sqlite3 binds an object keyed like a Drizzle insert. */
export const INSERT_PAYMENT_SQL = `insert into payments (${columns.map(([, c]) => `"${c.name}"`).join(", ")}) values (${columns
  .map(([key]) => `@${key}`)
  .join(", ")})`;

/** Every column under its Drizzle key, so a raw row is a PaymentRow. */
export const SELECT_PAYMENT_SQL = `select ${Object.entries(getTableColumns(payments))
  .map(([key, c]) => `"${c.name}" as "${key}"`)
  .join(", ")} from payments`;

/** A full insert object: better-sqlite3 refuses a statement with an unbound named parameter; an absent value takes the column's default. */
export function completeRow(row: PaymentInsert): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of columns) out[key] = (row as Record<string, unknown>)[key] ?? (column.hasDefault ? column.default : null) ?? null;
  return out;
}
