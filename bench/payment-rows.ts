// Raw SQL over the payments table, derived from db/schema.ts so the seeder and the floor write the rows Owo writes.
import { getTableColumns } from "drizzle-orm";
import { payments } from "../db/schema";
import { formatKobo } from "../server/money";
import { transferPayments, ussdPayments } from "../server/payments/initiate-answer";
import { dialCode, sandboxHoldingBank } from "../server/providers/banks";

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
  for (const [key, column] of columns)
    out[key] = (row as Record<string, unknown>)[key] ?? (column.hasDefault ? column.default : null) ?? null;
  return out;
}

const names = columns.map(([, c]) => `"${c.name}"`).join(", ");

/** PostgreSQL's form of the insert: positional parameters in `paymentValues` order. */
export const INSERT_PAYMENT_PG_SQL = `insert into payments (${names}) values (${columns.map((_, i) => `$${i + 1}`).join(", ")})`;

export const paymentValues = (row: Record<string, unknown>): unknown[] => columns.map(([key]) => row[key]);

/**
 * Many rows in one statement on PostgreSQL: a JSON array of rows keyed by column name, typed by the table itself.
 * A row whose unique numbers are taken is skipped; the inserted ones come back so the seeder can count and replace.
 */
export const BULK_INSERT_PG_SQL = `insert into payments (${names}) select ${names} from json_populate_recordset(null::payments, $1) on conflict do nothing returning merchant_id, payment_reference`;

export function byColumnName(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(columns.map(([key, c]) => [c.name, row[key]]));
}

/** What the sandbox bank issues a payment: a USSD bank's dial code, or an account at the holding bank in the merchant's name. */
export type SandboxNumbers =
  | { type: "USSD"; bankCode: string; ussdCode: string; providerReference: string }
  | { type: "TRANSFER"; accountNumber: string; merchantName: string };

/**
 * A sandbox payment's issued columns and its `payments` answer, built by Owo's own answer builders
 * (server/payments/initiate-answer.ts), for the seeder's rows and the floor's: the same bytes Owo stores and answers.
 */
export function sandboxIssue(
  p: { paymentReference: string; linkingReference: string; amountKobo: number; expiresAt: number; publicUrl: string },
  numbers: SandboxNumbers,
): { issued: Partial<PaymentInsert>; answer: object } {
  const head = { paymentReference: p.paymentReference, linkingReference: p.linkingReference };
  const tail = {
    amount: formatKobo(p.amountKobo),
    expiresAt: new Date(p.expiresAt).toISOString(),
    checkoutUrl: `${p.publicUrl}/checkout/${p.linkingReference}`,
  };
  if (numbers.type === "USSD") {
    const { bankCode, providerReference } = numbers;
    const code = dialCode(numbers.ussdCode, providerReference);
    return {
      issued: { bankCode, providerReference, dialCode: code },
      answer: ussdPayments(head, { providerReference, dialCode: code }, tail),
    };
  }
  const { accountNumber } = numbers;
  const walletName = `OWO(${numbers.merchantName})`;
  return {
    issued: { accountNumber, accountBankName: sandboxHoldingBank.bankName, walletName },
    answer: transferPayments(head, { accountNumber, bankName: sandboxHoldingBank.bankName }, walletName, tail),
  };
}
