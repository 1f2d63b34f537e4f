// The data layer the services use, the same on both dialects (DESIGN.md "Storage and scale"): `db()` reads the
// committed state, `write()` runs one transaction. SQLite (a file path in DATABASE_URL) is db/sqlite-store.ts,
// PostgreSQL (a postgres:// URL) db/postgres-store.ts; no service imports either.
//
// One transaction style, explicit: `write()` hands its body a `tx` and `readSnapshot()` its body a `q`, and every
// function that reads or writes inside one takes it (a `q: Db` when it serves both: the caller passes `db()` or the
// one it holds). Nothing reaches an open transaction by itself: `db()`, a nested `write()` and `readSnapshot()` refuse
// inside one (`ambient`). Why explicit over an ambient transaction found through AsyncLocalStorage: a function's signature then
// says whether it touches the open transaction, so what commits together reads off the code and the types; a helper
// cannot silently read the committed state in one caller and uncommitted rows in another; and the body handed to
// `write()` may run more than once (PostgreSQL retries), which a reader should see at every statement in it.
import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { trace } from "@opentelemetry/api";
import type Database from "better-sqlite3";
import type { LoopLocks } from "./advisory-locks";
import { databaseDialect, environment } from "../environment";
import { databaseTargetOf } from "./location";
import { openPostgres, queueLockValues } from "./postgres-store";
import { openSqlite } from "./sqlite-store";
import { QueueNeeded, type Db, type Isolation, type PoolUse, type Readiness, type Store } from "./store";

export type { Db, Isolation, Readiness } from "./store";
export type Tx = Db;

const tracer = trace.getTracer("owo");

type Opened = { store: Store; migrated: boolean };
const holder = globalThis as unknown as { __owoDb?: Opened; __owoOpenTx?: AsyncLocalStorage<OpenTx> };

/**
 * The transaction the current async call chain runs in; `open` turns false at commit, for work it left behind.
 * `queues`: those it holds from its start (PostgreSQL; `joinQueue`).
 */
type OpenTx = { tx: Db; open: boolean; queues: ReadonlySet<string>; isolation: Isolation | "snapshot" };
const current = (holder.__owoOpenTx ??= new AsyncLocalStorage<OpenTx>());

function open(): Opened {
  const target = databaseTargetOf(environment("databaseUrl"));
  const store =
    target.dialect === "sqlite"
      ? openSqlite(target.path)
      : openPostgres(target.url, { size: environment("dbPoolSize"), statementTimeoutMs: environment("dbStatementTimeoutMs") });
  return { store, migrated: false };
}

/** Opened lazily so that `next build` never touches the database. Shared with Next's bundle via globalThis. */
function opened(): Opened {
  holder.__owoDb ??= open();
  return holder.__owoDb;
}

export function dialect(): "sqlite" | "postgres" {
  return databaseDialect();
}

/**
 * Reads of the last committed state. Inside `write()` or `readSnapshot()` it refuses: the body and its helpers take the
 * `tx` or `q` handed to it (`ambient`).
 */
export function db(): Db {
  const inside = current.getStore();
  if (!inside?.open) return opened().store.reader;
  ambient(
    `db() inside ${inside.isolation === "snapshot" ? "readSnapshot()" : "write()"}: pass the one it handed down to the function that reads`,
  );
  return inside.tx;
}

let toldAmbient = false;

/**
 * Reaching the open transaction other than through the `tx` handed down is refused outside production, so a test that
 * takes such a path fails; in production, where a path no test took must not start failing, it is told once (a process
 * warning with the stack) and keeps its old meaning, that transaction.
 */
function ambient(what: string): void {
  if (environment("nodeEnv") !== "production") throw new Error(`${what} (db/client.ts: one transaction style)`);
  if (toldAmbient) return;
  toldAmbient = true;
  process.emitWarning(what, { code: "OWO_AMBIENT_TRANSACTION", detail: new Error().stack });
}

/**
 * One write transaction, serializable on both dialects unless the caller asks PostgreSQL for read committed (db/store.ts
 * `Isolation`): SQLite runs one at a time, PostgreSQL retries the body from the start when another got in its way. So the body does database work only: never the network, never
 * anything that must not happen twice. A `write()` inside another joins it.
 */
export type WriteOptions = {
  isolation?: Isolation;
  /** Queues the body will join (`joinQueue`), when the caller knows them: held from the start, the body runs once. */
  queues?: string[];
};

export async function write<T>(body: (tx: Tx) => Promise<T>, options: WriteOptions = {}): Promise<T> {
  const inside = current.getStore();
  if (inside?.open) {
    ambient("write() inside write(): run the inner body with the outer tx");
    return body(inside.tx);
  }
  // Traced only inside a recording span (a request's, when OTEL_EXPORTER_OTLP_ENDPOINT is set): otherwise no span at all.
  if (trace.getActiveSpan()?.isRecording())
    return tracer.startActiveSpan("db.transaction", { attributes: { "db.system": opened().store.dialect } }, async (span) => {
      try {
        return await transaction(body, options);
      } finally {
        span.end();
      }
    });
  return transaction(body, options);
}

function transaction<T>(body: (tx: Tx) => Promise<T>, options: WriteOptions): Promise<T> {
  return opened().store.transaction(
    async (tx, queues) => {
      const here: OpenTx = { tx, open: true, queues, isolation: options.isolation ?? "serializable" };
      try {
        return await current.run(here, () => body(tx));
      } finally {
        here.open = false;
      }
    },
    options.isolation ?? "serializable",
    options.queues,
  );
}

/**
 * Called inside `write()` before moving a row every writer of `queue` moves (a merchant's ledger head and balances):
 * such writers then run one after another. PostgreSQL, serializable: the transaction must hold the queue from before
 * its snapshot, or two of them would meet at the row and one would fail serialization; one that does not is run again
 * from the start holding it (pass `queues` to `write()` to spare that). Read committed: the caller's own next statement
 * takes the lock this returns (`select pg_advisory_xact_lock(class, key)` inside it, so waiting costs no round trip of
 * its own) and keeps it until commit, so call it as late as the work allows; a holder taking it again is let through
 * at once. SQLite runs every writer in turn already: null.
 */
export function joinQueue(tx: Tx, queue: string): readonly [number, number] | null {
  const inside = current.getStore();
  if (!inside?.open || inside.tx !== tx || inside.isolation === "snapshot")
    throw new Error(`joinQueue(${queue}) outside its write transaction`);
  if (opened().store.dialect !== "postgres") return null;
  if (inside.isolation === "serializable" && !inside.queues.has(queue)) throw new QueueNeeded(queue);
  return queueLockValues(queue);
}

/**
 * A view read in several statements that must agree with each other (a payment's row and its refunds' rows): the body
 * reads through the `q` it is handed, and its helpers take that `q`, so every statement sees one committed state.
 * Reads only; inside another transaction it refuses (read through the one handed down there).
 */
export async function readSnapshot<T>(body: (q: Db) => Promise<T>): Promise<T> {
  const inside = current.getStore();
  if (inside?.open) {
    ambient(`readSnapshot() inside ${inside.isolation === "snapshot" ? "readSnapshot()" : "write()"}: read through the one handed down`);
    return body(inside.tx);
  }
  return opened().store.snapshot(async (tx) => {
    const here: OpenTx = { tx, open: true, queues: new Set(), isolation: "snapshot" };
    try {
      return await current.run(here, () => body(tx));
    } finally {
      here.open = false;
    }
  });
}

/** Locks for loops run once per database that PostgreSQL drops the moment this process dies; null on SQLite (lease rows there). */
export function loopLocks(): LoopLocks | null {
  return opened().store.loopLocks;
}

/** Moves when another process commits (SQLite's data_version); null on PostgreSQL, where caches expire by time. */
export function changeMarker(): number | null {
  return opened().store.changeMarker();
}

export async function migrateDatabase(): Promise<void> {
  const o = opened();
  await o.store.migrate();
  o.migrated = true;
}

/**
 * What a load balancer's readiness check needs (API.md `/api/ready`): the database answers, it names itself, and
 * every migration this build ships is applied. A query, not a flag, so a database changed under a running process
 * shows.
 */
export function readiness(): Promise<Readiness> {
  return opened().store.readiness();
}

export function isMigrated(): boolean {
  return holder.__owoDb?.migrated ?? false;
}

export async function closeDatabase(): Promise<void> {
  const o = holder.__owoDb;
  holder.__owoDb = undefined;
  await o?.store.close();
}

/** The PostgreSQL pool's use now; null on SQLite or before the database is opened. */
export function poolUse(): PoolUse | null {
  return holder.__owoDb?.store.poolUse() ?? null;
}

/** SQLite's own connection, for tests and tools that inspect the file as SQLite sees it; services never use it. */
export function rawSqlite(): Database.Database {
  const store = opened().store;
  if (store.dialect !== "sqlite" || !store.raw) throw new Error("rawSqlite(): this process runs on PostgreSQL");
  return store.raw;
}

/** Whether `tx` is the write transaction the current call chain runs in (db/postgres-statements.ts, `sqliteStatement`). */
export function isCurrentWrite(tx: Tx): boolean {
  const inside = current.getStore();
  return !!inside?.open && inside.tx === tx && inside.isolation !== "snapshot";
}

/** Whether the current call chain runs inside a transaction, a write or a snapshot. */
export function insideTransaction(): boolean {
  return current.getStore()?.open ?? false;
}

/**
 * SQLite only: one statement compiled once on the write connection and run in the caller's write transaction `tx` with
 * positional values; answers its rows (none for a statement that returns nothing). For a hot path where Drizzle's own
 * execution of a prepared query costs more than SQLite's work (the books' posting, bench/README.md).
 */
export function sqliteStatement<R = never>(text: string): (tx: Tx, ...values: unknown[]) => R[] {
  const compiled = new WeakMap<Database.Database, Database.Statement>();
  return (tx, ...values) => {
    const { store } = opened();
    if (!isCurrentWrite(tx) || !store.raw) throw new Error(`${text}: a SQLite write transaction only`);
    let statement = compiled.get(store.raw);
    if (!statement) {
      statement = store.raw.prepare(text);
      compiled.set(store.raw, statement);
    }
    if (statement.reader) return statement.all(...values) as R[];
    statement.run(...values);
    return [];
  };
}

let preparedCount = 0;

/**
 * A query compiled once per connection and run with `sql.placeholder` values: Drizzle otherwise rebuilds a query's SQL
 * on every call, which costs more than the database's own work on the hot paths (bench/README.md). It runs on what the
 * caller passes: `db()`, the last committed state (so only reads belong there; SQLite's read connection refuses a
 * write), or its `tx` (SQLite: one write connection, so compiled once; PostgreSQL: a named statement per client).
 */
export function prepared<Q extends PromiseLike<unknown>>(
  build: (db: Db) => Q,
): (target: Db, values: Record<string, unknown>) => Promise<Awaited<Q>> {
  const name = `owo_${++preparedCount}`;
  const compiled = new WeakMap<object, { execute(values: Record<string, unknown>): unknown }>();
  return async (target, values): Promise<Awaited<Q>> => {
    // Kept per connection, not per transaction object: PostgreSQL's pool lends the same few clients to transaction
    // after transaction, each with a Drizzle session of its own, and a statement compiled for a client runs on it in
    // any transaction it serves (Drizzle's sessions keep their connection as `client`; both dialects).
    const connection = (target as unknown as { session?: { client?: object } }).session?.client ?? target;
    let statement = compiled.get(connection);
    if (!statement) {
      // The query builders of both dialects have prepare(); PostgreSQL's takes the statement's name.
      const query = build(target) as unknown as { prepare(name?: string): { execute(values: Record<string, unknown>): unknown } };
      statement = opened().store.dialect === "postgres" ? query.prepare(name) : query.prepare();
      compiled.set(connection, statement);
    }
    return (await statement.execute(values)) as Awaited<Q>;
  };
}
