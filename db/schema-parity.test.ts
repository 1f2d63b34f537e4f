// The two schemas describe one data model: db/tables/ (SQLite, gathered by schema-sqlite.ts) and db/tables-pg/
// (PostgreSQL, gathered by schema-pg.ts) declare the same tables, columns, keys, indexes and references, and their
// generated migrations build the same catalog. Migrations on PostgreSQL run once when several instances start together.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { getTableName, type SQL } from "drizzle-orm";
import { getTableConfig as pgConfig, PgDialect, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";
import type pg from "pg";
import * as sqliteSchema from "./schema-sqlite";
import * as pgSchema from "./schema-pg";
import { migratePostgres } from "./postgres-migrations";
import { onPostgres, startPostgres, type PostgresServer } from "./throwaway-postgres";

type Column = {
  name: string;
  kind: string;
  notNull: boolean;
  primary: boolean;
  unique: boolean;
  default: unknown;
  enum: string[] | undefined;
};
type Described = { columns: Column[]; primaryKeys: string[][]; indexes: string[]; foreignKeys: string[] };

/** SQLite's integer is 64-bit: PostgreSQL's bigint; its 0/1 flags are booleans; its autoincrement ids bigserial. */
const KINDS: Record<string, string> = {
  SQLiteInteger: "integer",
  PgBigInt53: "integer",
  SQLiteBoolean: "boolean",
  PgBoolean: "boolean",
  SQLiteText: "text",
  PgText: "text",
  PgBigSerial53: "serial",
};

type Config = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;

function describe(config: Config, whereText: (where: SQL) => string): Described {
  const columns = config.columns.map((c) => {
    const serial =
      c.columnType === "PgBigSerial53" || (c.columnType === "SQLiteInteger" && "autoIncrement" in c && c.autoIncrement === true);
    // A bigserial has a default (its sequence) where SQLite's autoincrement has none: the same thing, so not compared.
    return {
      name: c.name,
      kind: serial ? "serial" : (KINDS[c.columnType] ?? c.columnType),
      notNull: c.notNull,
      primary: c.primary,
      unique: c.isUnique,
      default: serial ? undefined : c.default,
      enum: c.enumValues,
    };
  });
  const indexes = config.indexes.map((i) => {
    const { name, unique, columns, where } = i.config as { name: string; unique: boolean; columns: { name: string }[]; where?: SQL };
    return `${unique ? "unique " : ""}${name} (${columns.map((c) => c.name).join(", ")})${where ? ` where ${whereText(where)}` : ""}`;
  });
  const foreignKeys = config.foreignKeys.map((fk) => {
    const r = fk.reference();
    return `(${r.columns.map((c) => c.name).join(", ")}) → ${getTableName(r.foreignTable)} (${r.foreignColumns.map((c) => c.name).join(", ")})`;
  });
  return {
    columns: columns.sort((a, b) => a.name.localeCompare(b.name)),
    primaryKeys: config.primaryKeys.map((k) => k.columns.map((c) => c.name)),
    indexes: indexes.sort(),
    foreignKeys: foreignKeys.sort(),
  };
}

const sqliteTables = new Map(
  Object.values(sqliteSchema)
    .filter((t) => t instanceof SQLiteTable)
    .map((t) => [getTableName(t), t]),
);
const pgTables = new Map(
  Object.values(pgSchema)
    .filter((t) => t instanceof PgTable)
    .map((t) => [getTableName(t), t]),
);

test("the PostgreSQL schema declares db/schema-sqlite.ts's tables, columns, keys, indexes and references", () => {
  assert.deepEqual([...pgTables.keys()].sort(), [...sqliteTables.keys()].sort(), "the same tables");
  const sqliteDialect = new SQLiteSyncDialect();
  const pgDialect = new PgDialect();
  for (const [name, table] of sqliteTables) {
    const theirs = describe(sqliteConfig(table), (w) => sqliteDialect.sqlToQuery(w).sql);
    const ours = describe(pgConfig(pgTables.get(name) as PgTable), (w) => pgDialect.sqlToQuery(w).sql);
    assert.deepEqual(ours, theirs, `table ${name}`);
  }
});

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.stop());

type Catalog = Record<string, { columns: string[]; primaryKey: string[]; indexes: string[]; foreignKeys: number }>;

function sqliteCatalog(): Catalog {
  const db = new Database(":memory:");
  migrate(drizzle(db), { migrationsFolder: "db/migrations" });
  const catalog: Catalog = {};
  const tables = db
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name <> '__drizzle_migrations'")
    .all() as { name: string }[];
  for (const { name } of tables) {
    const info = db.prepare(`pragma table_info("${name}")`).all() as { name: string; notnull: number; pk: number }[];
    const indexes = db.prepare(`pragma index_list("${name}")`).all() as { name: string; unique: number; origin: string }[];
    catalog[name] = {
      columns: info.map((c) => `${c.name}${c.notnull || c.pk ? " not null" : ""}`).sort(),
      primaryKey: info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
      indexes: indexes
        .filter((i) => i.origin !== "pk")
        .map((i) => `${i.unique ? "unique " : ""}${i.name}`)
        .sort(),
      foreignKeys: new Set((db.prepare(`pragma foreign_key_list("${name}")`).all() as { id: number }[]).map((f) => f.id)).size,
    };
  }
  db.close();
  return catalog;
}

async function pgCatalog(client: pg.Client): Promise<Catalog> {
  const catalog: Catalog = {};
  const columns = await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
    "select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public'",
  );
  for (const c of columns.rows)
    (catalog[c.table_name] ??= { columns: [], primaryKey: [], indexes: [], foreignKeys: 0 }).columns.push(
      `${c.column_name}${c.is_nullable === "NO" ? " not null" : ""}`,
    );
  const indexes = await client.query<{ table: string; name: string; unique: boolean; primary: boolean; columns: string[] }>(`
    select t.relname as table, i.relname as name, x.indisunique as unique, x.indisprimary as primary,
           array(select a.attname from unnest(x.indkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = t.oid and a.attnum = k.n order by k.o)::text[] as columns
    from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid join pg_namespace s on s.oid = t.relnamespace
    where s.nspname = 'public'`);
  for (const i of indexes.rows) {
    const entry = catalog[i.table];
    if (!entry) continue;
    if (i.primary) entry.primaryKey = i.columns;
    else entry.indexes.push(`${i.unique ? "unique " : ""}${i.name}`);
  }
  const fks = await client.query<{ table: string }>(
    "select conrelid::regclass::text as table from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace",
  );
  for (const f of fks.rows) if (catalog[f.table]) catalog[f.table]!.foreignKeys += 1;
  for (const entry of Object.values(catalog)) {
    entry.columns.sort();
    entry.indexes.sort();
  }
  return catalog;
}

test("the generated migrations build the same catalog on both, and PostgreSQL's run once when three instances start together", async () => {
  await onPostgres(server.url, (c) => c.query("create database parity"));
  const url = server.databaseUrl("parity");
  await Promise.all([migratePostgres(url), migratePostgres(url), migratePostgres(url)]);
  const shipped = (JSON.parse(readFileSync("db/migrations-pg/meta/_journal.json", "utf8")) as { entries: unknown[] }).entries.length;
  await onPostgres(url, async (c) => {
    const applied = await c.query<{ n: string }>("select count(*) as n from drizzle.__drizzle_migrations");
    assert.equal(Number(applied.rows[0]?.n), shipped, "each migration recorded once");
    assert.deepEqual(await pgCatalog(c), sqliteCatalog());
  });
});
