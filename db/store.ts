// What the neutral data layer (db/client.ts) needs of a database, whichever it is.
import type Database from "better-sqlite3";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { LoopLocks } from "./advisory-locks";
import type * as schema from "./schema-sqlite";

/**
 * The one database type the services see: Drizzle's async SQLite database over db/schema-sqlite.ts (db/tables/). Its queries are
 * awaited, never run with `.get()`/`.all()`/`.run()` (PostgreSQL has none; the linter refuses them), and a write's
 * count of changed rows comes from `.returning()`, which both dialects have.
 */
export type Db = BaseSQLiteDatabase<"async", unknown, typeof schema>;

/**
 * PostgreSQL's isolation for a write transaction (SQLite runs them one at a time, which is serializable anyway).
 * "read committed" is for a transaction whose races a unique index, a compare-and-set update or a row lock taken
 * before the decision (a claim's FOR UPDATE SKIP LOCKED, db/functions.ts) decides, where serializable's page-level
 * conflicts would only add retries.
 */
export type Isolation = "serializable" | "read committed";

export type Readiness = {
  dialect: "sqlite" | "postgres";
  version: string;
  migrations: { applied: number; expected: number };
  current: boolean;
};

export type PoolUse = { max: number; open: number; idle: number; waiting: number };

/**
 * Thrown inside a PostgreSQL write transaction that must hold `queue` from before its snapshot (db/client.ts
 * `joinQueue`): the store rolls back and runs the body again holding it. Not an error anyone sees.
 */
export class QueueNeeded extends Error {
  constructor(readonly queue: string) {
    super(`the transaction must hold queue ${queue} from its start`);
  }
}

export interface Store {
  dialect: "sqlite" | "postgres";
  /** Outside a transaction: the last committed state. */
  reader: Db;
  /**
   * One write transaction; the body may be run again from the start (PostgreSQL's retries). PostgreSQL: it holds each
   * of `queues` (writers sharing a queue run one at a time) from before its snapshot, and those the body learns it
   * needs (QueueNeeded) in the runs after; the body is told which it holds. SQLite runs every writer in turn anyway.
   */
  transaction<T>(body: (tx: Db, queues: ReadonlySet<string>) => Promise<T>, isolation: Isolation, queues?: readonly string[]): Promise<T>;
  /** Several reads that see one committed state: a read-only transaction (never retried; it cannot conflict). */
  snapshot<T>(body: (tx: Db) => Promise<T>): Promise<T>;
  /** A number that moves when another process commits, or null where the database offers none (PostgreSQL). */
  changeMarker(): number | null;
  /** Locks that die with this process's connection, for loops run once per database; null where there are none (SQLite). */
  loopLocks: LoopLocks | null;
  migrate(): Promise<void>;
  readiness(): Promise<Readiness>;
  close(): Promise<void>;
  /** PostgreSQL: the pool's connections now (for /metrics); null on SQLite, which has one connection and no pool. */
  poolUse(): PoolUse | null;
  /** SQLite only: the write connection, for tests and tools (db/client.ts `rawSqlite`). */
  raw?: Database.Database;
}
