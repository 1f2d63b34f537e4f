// PostgreSQL behind the neutral data layer (db/client.ts): a pool, each write transaction serializable (unless the
// service asks for read committed) on one client and retried from the start on serialization failure (40001) and deadlock (40P01) with a jittered pause, so
// a service gets the guarantee SQLite's single writer gives it, whatever runs beside it on other instances.
import { drizzle } from "drizzle-orm/node-postgres";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import pg from "pg";
import * as schema from "./schema-pg";
import { advisoryLoopLocks } from "./advisory-locks";
import { migratePostgres } from "./postgres-migrations";
import type { Db, Readiness, Store } from "./store";

const RETRYABLE = new Set(["40001", "40P01"]);
// Retried for a while rather than a number of times: under load many writers for one merchant meet at its ledger
// head, and each round only one of them commits, so a count that suffices at 2 writers runs out at 16.
const RETRY_WINDOW_MS = 10_000;
const LONGEST_PAUSE_MS = 250;

export type PoolOptions = { size: number; statementTimeoutMs: number };

let retries = 0;

/** Write transactions this process ran again after a serialization failure or deadlock: what a test of contention counts. */
export function retriedTransactions(): number {
  return retries;
}

function retryable(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if (RETRYABLE.has(String((e as { code?: unknown }).code))) return true;
  }
  return false;
}

export function openPostgres(url: string, options: PoolOptions): Store {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.size,
    statement_timeout: options.statementTimeoutMs,
    idle_in_transaction_session_timeout: options.statementTimeoutMs * 2,
  });
  // An idle client's error (the server restarting) must not end the process; the next query reports it instead.
  pool.on("error", () => undefined);
  const database = drizzle(pool, { schema });
  // The services' type is SQLite's; the query builders they call are the same on both (db/store.ts).
  const reader = database as unknown as Db;
  const loopLocks = advisoryLoopLocks(url, options.statementTimeoutMs);

  return {
    dialect: "postgres",
    reader,
    async transaction(body, isolation) {
      const giveUpAt = Date.now() + RETRY_WINDOW_MS;
      for (let attempt = 1; ; attempt++) {
        try {
          return await database.transaction((tx) => body(tx as unknown as Db), { isolationLevel: isolation });
        } catch (err) {
          if (!retryable(err) || Date.now() >= giveUpAt) throw err;
          retries++;
          await new Promise((r) => setTimeout(r, Math.random() * Math.min(LONGEST_PAUSE_MS, 2 ** attempt)));
        }
      }
    },
    snapshot: (body) =>
      database.transaction((tx) => body(tx as unknown as Db), { isolationLevel: "repeatable read", accessMode: "read only" }),
    changeMarker: () => null,
    loopLocks,
    poolUse: () => ({ max: options.size, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    migrate: () => migratePostgres(url),
    async readiness(): Promise<Readiness> {
      const journal = JSON.parse(readFileSync(resolve(process.cwd(), "db/migrations-pg/meta/_journal.json"), "utf8")) as {
        entries: { when: number }[];
      };
      const { rows } = await pool
        .query<{ version: string; applied: string; last: string | null }>(
          `select version() as version,
           (select count(*) from drizzle.__drizzle_migrations) as applied,
           (select max(created_at)::text from drizzle.__drizzle_migrations) as last`,
        )
        .catch(async (err: unknown) => {
          if ((err as { code?: string }).code !== "42P01") throw err;
          return pool.query<{ version: string; applied: string; last: string | null }>(
            "select version() as version, '0' as applied, null as last",
          );
        });
      const row = rows[0];
      const last = journal.entries.at(-1)?.when ?? null;
      return {
        dialect: "postgres",
        version: row?.version ?? "",
        migrations: { applied: Number(row?.applied ?? 0), expected: journal.entries.length },
        current: row?.last !== null && row?.last !== undefined && Number(row.last) === last,
      };
    },
    async close() {
      await loopLocks.close();
      await pool.end();
    },
  };
}
