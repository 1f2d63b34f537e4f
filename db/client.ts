// The process's one SQLite connection: WAL, foreign keys, busy timeout, immediate write transactions.
import "server-only";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as schema from "./schema";
import { databasePath } from "./location";

export type Db = BetterSQLite3Database<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

type Opened = { sqlite: Database.Database; db: Db; migrated: boolean };
const holder = globalThis as unknown as { __owoDb?: Opened };

const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Drizzle sees it, with compiled statements kept by SQL text. Drizzle prepares every query
 * afresh, and compiling SQL was the largest single cost of a request (bench/README.md). Drizzle sets raw mode on
 * a statement when it maps columns itself, so a reused statement starts back in object mode.
 */
function withStatementCache(sqlite: Database.Database): Database.Database {
  const statements = new Map<string, Database.Statement>();
  const prepare = (source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      statement = sqlite.prepare(source);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value ?? "");
      statements.set(source, statement);
    } else if (statement.reader) {
      statement.raw(false);
    }
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === "prepare") return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function open(path: string): Opened {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return { sqlite, db: drizzle(withStatementCache(sqlite), { schema }), migrated: false };
}

/** Opened lazily so that `next build` never touches the database. Shared with Next's bundle via globalThis. */
function opened(): Opened {
  holder.__owoDb ??= open(databasePath());
  return holder.__owoDb;
}

export function db(): Db {
  return opened().db;
}

export function sqlite(): Database.Database {
  return opened().sqlite;
}

/**
 * Queries built once per connection (with `sql.placeholder`s) for the hot paths: Drizzle otherwise rebuilds a
 * query's SQL on every call, which cost more than SQLite's own work (bench/README.md). A statement prepared on
 * the connection takes part in whatever transaction `write()` has open, as SQLite transactions are per connection.
 */
export function preparedQueries<T>(build: (db: Db) => T): () => T {
  const built = new WeakMap<Db, T>();
  return () => {
    const current = db();
    let queries = built.get(current);
    if (queries === undefined) {
      queries = build(current);
      built.set(current, queries);
    }
    return queries;
  };
}

export function migrateDatabase(): void {
  const o = opened();
  // A migration that rebuilds a table (drizzle-kit's way to change a column) drops the old one, which fails on the rows
  // that point at it while foreign keys are on. SQLite's own recipe: keys off around the change (a pragma outside any
  // transaction), then check every key before they are on again.
  o.sqlite.pragma("foreign_keys = OFF");
  try {
    migrate(o.db, { migrationsFolder: resolve(process.cwd(), "db/migrations") });
    const broken = o.sqlite.pragma("foreign_key_check") as unknown[];
    if (broken.length > 0) throw new Error(`the migrations left ${broken.length} rows whose foreign keys point nowhere`);
  } finally {
    o.sqlite.pragma("foreign_keys = ON");
  }
  o.migrated = true;
}

export type Readiness = { dialect: "sqlite"; version: string; migrations: { applied: number; expected: number } };

/**
 * What a load balancer's readiness check needs (API.md `/api/ready`): the database answers, it names itself, and
 * every migration this build ships is applied. A query, not a flag, so a database changed under a running process
 * shows. Drizzle's migrator records each migration with its journal time and applies those newer than the last.
 */
export function readiness(): Readiness & { current: boolean } {
  const journal = JSON.parse(readFileSync(resolve(process.cwd(), "db/migrations/meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
  const connection = sqlite();
  const { version } = connection.prepare("select sqlite_version() as version").get() as { version: string };
  const table = connection.prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get();
  const applied = table ? (connection.prepare("select count(*) as n, max(created_at) as last from __drizzle_migrations").get() as { n: number; last: number | null }) : { n: 0, last: null };
  const last = journal.entries.at(-1)?.when ?? null;
  return { dialect: "sqlite", version, migrations: { applied: applied.n, expected: journal.entries.length }, current: applied.last === last };
}

export function isMigrated(): boolean {
  return holder.__owoDb?.migrated ?? false;
}

/**
 * One write transaction. Immediate: a deferred one that later upgrades to a write fails at once
 * (SQLITE_BUSY) when another writer holds the lock, instead of waiting for busy_timeout.
 */
export function write<T>(fn: (tx: Tx) => T): T {
  return db().transaction(fn, { behavior: "immediate" });
}

export function closeDatabase(): void {
  holder.__owoDb?.sqlite.close();
  holder.__owoDb = undefined;
}
