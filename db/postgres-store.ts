// PostgreSQL behind the neutral data layer (db/client.ts): a pool, each write transaction serializable (unless the
// service asks for read committed) on one client and retried from the start on serialization failure (40001) and deadlock (40P01) with a jittered pause, so
// a service gets the guarantee SQLite's single writer gives it, whatever runs beside it on other instances.
// Writers that must move one hot row (a merchant's ledger head and balances) queue for it instead: a session advisory
// lock per queue, taken before BEGIN, so each gets its snapshot after the one before it committed and never conflicts.
import { createHash } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import pg from "pg";
import * as schema from "./schema-pg";
import { advisoryLoopLocks } from "./advisory-locks";
import { migratePostgres } from "./postgres-migrations";
import { inTransaction, sessionOf, type Session } from "./postgres-transaction";
import { QueueNeeded, type Db, type Isolation, type Readiness, type Store } from "./store";

const RETRYABLE = new Set(["40001", "40P01"]);
// Retried for a while rather than a number of times, so a burst of conflicts on some other hot row cannot exhaust a
// count. Writers of one merchant's books do not meet here at all: they queue (`queued`, db/client.ts `joinQueue`).
const RETRY_WINDOW_MS = 10_000;
const LONGEST_PAUSE_MS = 250;

/** Queues' advisory locks use PostgreSQL's two-key space (class, key), apart from the loops' single 64-bit keys. */
const QUEUE_LOCK_CLASS = 0x6f776f51; // "owoQ"

function queueKey(queue: string): number {
  return createHash("sha256").update(queue).digest().readInt32BE(0);
}

/** A queue's lock: `queued` holds it across a transaction; a read committed one takes it until commit (db/client.ts `joinQueue`). */
export const queueLockValues = (queue: string): [number, number] => [QUEUE_LOCK_CLASS, queueKey(queue)];

export type PoolOptions = { size: number; statementTimeoutMs: number };

let retries = 0;
let queueReruns = 0;

/** Write transactions this process ran again after a serialization failure or deadlock: what a test of contention counts. */
export function retriedTransactions(): number {
  return retries;
}

/** Serializable transactions run again from the start because they learned at a posting that they need a queue. */
export function rerunForQueues(): number {
  return queueReruns;
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
  /**
   * A write transaction on a pooled client of its own, holding `queues` from before its BEGIN (taken in one order
   * everywhere, so two writers never wait on each other), and handing them back after.
   */
  async function onClient<T>(queues: ReadonlySet<string>, run: (session: Session) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let failed: Error | undefined;
    try {
      for (const key of [...queues].map(queueKey).sort((a, b) => a - b)) {
        await client.query("select pg_advisory_lock($1, $2)", [QUEUE_LOCK_CLASS, key]);
      }
      return await run(sessionOf(client));
    } finally {
      // A client whose locks cannot be handed back is closed instead, which hands them back.
      if (queues.size > 0)
        failed = await client.query("select pg_advisory_unlock_all()").then(
          () => undefined,
          (err: Error) => err,
        );
      client.release(failed);
    }
  }

  return {
    dialect: "postgres",
    reader,
    async transaction(body, isolation: Isolation, queues = []) {
      const giveUpAt = Date.now() + RETRY_WINDOW_MS;
      const holding = new Set(queues);
      for (let attempt = 1; ; attempt++) {
        try {
          return await onClient(holding, (session) => inTransaction(session, isolation, (tx) => body(tx as unknown as Db, holding)));
        } catch (err) {
          if (err instanceof QueueNeeded && !holding.has(err.queue)) {
            holding.add(err.queue);
            queueReruns++;
            continue;
          }
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
