// PostgreSQL: a test-mode initiation's payment and its first timeline event written by one statement, autocommitted.
// There each statement is a round trip, and BEGIN and COMMIT were two of the five an initiation made (bench/README.md);
// one data-modifying WITH writes both rows atomically, so the timeline event exists whenever the payment does.
import { getTableColumns, getTableName, type Column } from "drizzle-orm";
import type { Db } from "../../db/client";
import { postgresStatement } from "../../db/postgres-statements";
import { paymentEvents, payments, type PaymentRow } from "../../db/schema";
import { countPaymentEvent } from "../metrics/series";
import { eventRow, type RecordOptions } from "./events";

type Written = { text: string; paymentKeys: string[]; eventKeys: string[] };
let built: Written | undefined;

/**
 * The statement's text, from the tables' own columns and the keys events.ts's row has (so the event is the one
 * writeEvent would insert): built at the first call, when the tables are PostgreSQL's.
 */
function statement(paymentKeys: string[], eventKeys: string[]): Written {
  if (built) return built;
  const name = (columns: Record<string, Column>, key: string) => `"${columns[key]?.name ?? key}"`;
  const paymentColumns = getTableColumns(payments) as Record<string, Column>;
  const eventColumns = getTableColumns(paymentEvents) as Record<string, Column>;
  const numbered = (from: number, count: number) => Array.from({ length: count }, (_, i) => `$${from + i}`).join(", ");
  // VALUES, not SELECT … FROM p: there PostgreSQL takes each parameter's type from its target column.
  const text = `with p as (insert into "${getTableName(payments)}" (${paymentKeys.map((k) => name(paymentColumns, k)).join(", ")})
      values (${numbered(1, paymentKeys.length)}) returning "id")
    insert into "${getTableName(paymentEvents)}" ("payment_id", ${eventKeys.map((k) => name(eventColumns, k)).join(", ")})
      values ((select "id" from p), ${numbered(paymentKeys.length + 1, eventKeys.length)}) returning "payment_id" as "id"`;
  built = { text, paymentKeys, eventKeys };
  return built;
}

/**
 * Inserts `values` as a payment already carrying its first event's number (1) and that "initiated" event, in one
 * statement outside any transaction. "initiated" stays on the timeline (no callback: events.ts PUBLISHED), so there is
 * no outbox row to write. A unique index refusing the payment (reference, linking reference, the sandbox's numbers)
 * fails the statement as a whole, as it would fail the transaction. `pool`: db() outside any transaction.
 */
export async function insertInitiated(pool: Db, values: Omit<PaymentRow, "id">, now: number, opts: RecordOptions): Promise<PaymentRow> {
  const event = eventRow({ ...values, id: 0 }, "initiated", now, opts);
  const written = statement(
    Object.keys(values),
    Object.keys(event).filter((key) => key !== "paymentId"),
  );
  const columns = getTableColumns(payments) as Record<string, Column>;
  const driverValue = (column: Column | undefined, value: unknown) => (value === null || !column ? value : column.mapToDriverValue(value));
  const eventColumns = getTableColumns(paymentEvents) as Record<string, Column>;
  const [row] = await postgresStatement<{ id: string }>(pool, "owo_initiated", written.text, [
    ...written.paymentKeys.map((key) => driverValue(columns[key], values[key as keyof typeof values])),
    ...written.eventKeys.map((key) => driverValue(eventColumns[key], event[key as keyof typeof event])),
  ]);
  if (!row) throw new Error("the initiation's statement returned no row");
  countPaymentEvent("initiated", values.status);
  return { ...values, id: Number(row.id) };
}
