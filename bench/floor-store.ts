// The floor's database work, the least a server can do on each dialect: one prepared insert, one prepared read.
import Database from "better-sqlite3";
import pg from "pg";
import { databaseTargetOf } from "../db/location";
import { environment } from "../environment";
import type { PaymentRow } from "../db/schema";
import { INSERT_PAYMENT_PG_SQL, INSERT_PAYMENT_SQL, paymentValues, SELECT_PAYMENT_SQL } from "./payment-rows";

/** What an insert met: the row went in, the merchant's reference was taken, or a randomly issued number was. */
export type Inserted = "inserted" | "reference taken" | "number taken";

export type FloorStore = {
  insert(row: Record<string, unknown>): Promise<Inserted>;
  byReference(merchantId: string, reference: string): Promise<PaymentRow | undefined>;
  close(): Promise<void>;
};

/** One better-sqlite3 connection, WAL as Owo runs it; the row goes in an immediate transaction as Owo's does. */
function sqliteStore(path: string): FloorStore {
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const insert = sqlite.prepare(INSERT_PAYMENT_SQL);
  const read = sqlite.prepare(`${SELECT_PAYMENT_SQL} where merchant_id = ? and mode = 'test' and payment_reference = ?`);
  const insertOne = sqlite.transaction((row: Record<string, unknown>) => insert.run(row));
  return {
    async insert(row) {
      try {
        insertOne.immediate(row);
        return "inserted";
      } catch (e) {
        if ((e as { code?: string }).code !== "SQLITE_CONSTRAINT_UNIQUE") throw e;
        return String(e).includes("payments.payment_reference") ? "reference taken" : "number taken";
      }
    },
    async byReference(merchantId, reference) {
      return read.get(merchantId, reference) as PaymentRow | undefined;
    },
    async close() {
      sqlite.close();
    },
  };
}

/**
 * A pool of Owo's default size (OWO_DB_POOL_SIZE), named prepared statements, and each insert one statement in its
 * own implicit transaction: no BEGIN/COMMIT round trips, no serializable isolation, no retries.
 */
function postgresStore(url: string): FloorStore {
  // Owo's columns are bigint in milliseconds and kobo; as numbers, a row is a PaymentRow as Drizzle maps it.
  const types = { getTypeParser: (oid: number, format?: "text" | "binary") => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) };
  const pool = new pg.Pool({
    connectionString: url,
    max: environment("dbPoolSize"),
    types: types as pg.CustomTypesConfig,
  });
  pool.on("error", () => undefined);
  const read = `${SELECT_PAYMENT_SQL} where merchant_id = $1 and mode = 'test' and payment_reference = $2`;
  return {
    async insert(row) {
      try {
        await pool.query({ name: "floor_insert", text: INSERT_PAYMENT_PG_SQL, values: paymentValues(row) });
        return "inserted";
      } catch (e) {
        const { code, constraint } = e as { code?: string; constraint?: string };
        if (code !== "23505") throw e;
        return constraint === "payments_reference" ? "reference taken" : "number taken";
      }
    },
    async byReference(merchantId, reference) {
      const { rows } = await pool.query<PaymentRow>({ name: "floor_read", text: read, values: [merchantId, reference] });
      return rows[0];
    },
    close: () => pool.end(),
  };
}

export function openFloorStore(databaseUrl: string): FloorStore {
  const target = databaseTargetOf(databaseUrl);
  return target.dialect === "sqlite" ? sqliteStore(target.path) : postgresStore(target.url);
}
