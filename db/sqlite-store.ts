// SQLite behind the neutral data layer (db/client.ts). better-sqlite3 is synchronous and Drizzle's transaction on it
// takes only a synchronous body, so the async services get their own: BEGIN IMMEDIATE … COMMIT on a write connection
// that only the holder of an in-order gate may touch, one transaction at a time, as SQLite allows one writer anyway;
// those waiting share one COMMIT (db/group-commit.ts).
// Everything outside a transaction reads through a second connection with query_only on: it sees the last committed
// state (WAL), never an open transaction's writes, and a stray write there fails loudly instead of joining someone
// else's transaction. A transaction body awaits only the database, never the network, so the gate is held briefly.
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { readFileSync } from "node:fs";
import { groupCommitter } from "./group-commit";
import { privateDatabaseFiles, privateFolder } from "./private-files";
import { dirname, resolve } from "node:path";
import * as schema from "./schema-sqlite";
import type { Db, Readiness, Store } from "./store";

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

function connect(path: string): Database.Database {
  const connection = new Database(path);
  connection.pragma("journal_mode = WAL");
  connection.pragma("synchronous = NORMAL");
  connection.pragma("foreign_keys = ON");
  connection.pragma("busy_timeout = 5000");
  return connection;
}

/** Runs tasks one after another in arrival order; a failed task does not stop those behind it. */
function gate(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
}

// Drizzle's sync SQLite database runs the same queries when awaited; the services see them under the async type.
const asNeutral = (connection: Database.Database) => drizzle(withStatementCache(connection), { schema }) as unknown as Db;

/** SQLite's writers already run one at a time: no queue is ever needed (db/store.ts `QueueNeeded`). */
const ALL_IN_TURN: ReadonlySet<string> = new Set();

export function openSqlite(path: string): Store {
  if (path !== ":memory:") privateFolder(dirname(path));
  const writer = connect(path);
  // Group commit runs each body of a batch in a SAVEPOINT, and SQLite keeps the first image of every page a savepoint
  // changes in a statement journal: a temp file past 64 KiB by default (this build's TEMP_STORE=1). Written to disk for
  // every page of every body, it cost a sandbox credit a third of what posting its ledger entry cost (bench/README.md).
  writer.pragma("temp_store = MEMORY");
  if (path !== ":memory:") privateDatabaseFiles(path);
  // An in-memory database exists on one connection only, so there the reader is the writer (tests and tools only).
  const reader = path === ":memory:" ? writer : connect(path);
  if (reader !== writer) reader.pragma("query_only = ON");
  const writing = asNeutral(writer);
  const reading = reader === writer ? writing : asNeutral(reader);
  const inTurn = gate();
  const together = groupCommitter(writer, inTurn);
  // Views that read several statements get a connection of their own, so a read transaction held open across their
  // awaits never makes another request's plain read see an older state than the one it has just committed.
  const viewer = path === ":memory:" ? writer : connect(path);
  if (viewer !== writer) viewer.pragma("query_only = ON");
  const viewing = viewer === writer ? writing : asNeutral(viewer);
  const viewsInTurn = viewer === writer ? inTurn : gate();
  // Asked of the write connection: its data_version moves only when another connection commits, and the reader never
  // writes, so it moves for other processes' writes alone (the CLI rolling a key), not for this process's own.
  const dataVersion = writer.prepare("PRAGMA data_version").pluck();

  return {
    dialect: "sqlite",
    raw: writer,
    reader: reading,
    transaction: (body) => together(() => body(writing, ALL_IN_TURN)),
    snapshot: (body) =>
      viewsInTurn(async () => {
        viewer.exec("begin");
        try {
          return await body(viewing);
        } finally {
          if (viewer.inTransaction) viewer.exec(viewer === writer ? "rollback" : "commit");
        }
      }),
    changeMarker: () => dataVersion.get() as number,
    poolUse: () => null,
    // SQLite has no lock that outlives a statement but dies with its process: loops hold lease rows (server/leases.ts).
    loopLocks: null,
    async migrate() {
      // A migration that rebuilds a table (drizzle-kit's way to change a column) drops the old one, which fails on the
      // rows that point at it while foreign keys are on. SQLite's own recipe: keys off around the change (a pragma
      // outside any transaction), then check every key before they are on again.
      writer.pragma("foreign_keys = OFF");
      try {
        migrate(drizzle(writer), { migrationsFolder: resolve(process.cwd(), "db/migrations") });
        const broken = writer.pragma("foreign_key_check") as unknown[];
        if (broken.length > 0) throw new Error(`the migrations left ${broken.length} rows whose foreign keys point nowhere`);
      } finally {
        writer.pragma("foreign_keys = ON");
      }
    },
    async readiness(): Promise<Readiness> {
      // Drizzle's migrator records each migration with its journal time and applies those newer than the last.
      const journal = JSON.parse(readFileSync(resolve(process.cwd(), "db/migrations/meta/_journal.json"), "utf8")) as {
        entries: { when: number }[];
      };
      const { version } = reader.prepare("select sqlite_version() as version").get() as { version: string };
      const table = reader.prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get();
      const applied = table
        ? (reader.prepare("select count(*) as n, max(created_at) as last from __drizzle_migrations").get() as {
            n: number;
            last: number | null;
          })
        : { n: 0, last: null };
      const last = journal.entries.at(-1)?.when ?? null;
      return {
        dialect: "sqlite",
        version,
        migrations: { applied: applied.n, expected: journal.entries.length },
        current: applied.last === last,
      };
    },
    async close() {
      if (reader !== writer) reader.close();
      if (viewer !== writer) viewer.close();
      writer.close();
    },
  };
}
