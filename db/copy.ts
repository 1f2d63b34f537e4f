// Moving a SQLite deployment to PostgreSQL (`npm run owo -- db copy --from ./data/owo.db --to postgres://…`): the
// target is migrated, must be empty, and receives every row of every table in one transaction (a failure leaves it
// empty), parents before children; id sequences continue after the copied ids; then both sides are counted.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { getTableName } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import pg from "pg";
import { databaseTargetOf, UnusableDatabaseUrl } from "./location";
import { migratePostgres } from "./postgres-migrations";
import * as pgSchema from "./schema-pg";

export type CopiedTable = { table: string; sqlite: number; postgres: number };

/** PostgreSQL takes at most 65,535 parameters a statement. */
const MAX_PARAMETERS = 60_000;
const MAX_ROWS = 1_000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Tables ordered so that every table comes after those its foreign keys point at. */
function parentsFirst(): PgTable[] {
  const tables: PgTable[] = Object.values(pgSchema).filter((t) => t instanceof PgTable);
  const ordered: PgTable[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const before = ordered.length;
    for (const table of tables) {
      const name = getTableName(table);
      if (placed.has(name)) continue;
      const parents = getTableConfig(table)
        .foreignKeys.map((fk) => getTableName(fk.reference().foreignTable))
        .filter((p) => p !== name);
      if (parents.every((p) => placed.has(p))) {
        ordered.push(table);
        placed.add(name);
      }
    }
    if (ordered.length === before) throw new Error("the schema's foreign keys form a cycle");
  }
  return ordered;
}

async function copyTable(source: Database.Database, target: pg.ClientBase, table: PgTable): Promise<void> {
  const { name, columns } = getTableConfig(table);
  // SQLite keeps flags as 0/1; PostgreSQL's boolean columns want true/false.
  const convert = columns.map((c) =>
    c.columnType === "PgBoolean" ? (v: unknown) => (v === null ? null : v === 1 || v === true) : (v: unknown) => v,
  );
  const list = columns.map((c) => quote(c.name)).join(", ");
  const perStatement = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
  const flush = async (rows: unknown[][]) => {
    if (rows.length === 0) return;
    const values = rows.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(", ")})`).join(", ");
    await target.query(`insert into ${quote(name)} (${list}) values ${values}`, rows.flat());
  };
  const select = source.prepare(`select ${list} from ${quote(name)}`).raw(true);
  let batch: unknown[][] = [];
  for (const row of select.iterate() as IterableIterator<unknown[]>) {
    batch.push(row.map((value, i) => convert[i]!(value)));
    if (batch.length === perStatement) {
      await flush(batch);
      batch = [];
    }
  }
  await flush(batch);
  for (const serial of columns.filter((c) => c.columnType === "PgBigSerial53")) {
    await target.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${quote(serial.name)}) from ${quote(name)}), 0) + 1, false)`,
      [quote(name), serial.name],
    );
  }
}

export async function copySqliteToPostgres(from: string, to: string): Promise<CopiedTable[]> {
  const source = databaseTargetOf(from);
  const target = databaseTargetOf(to);
  if (source.dialect !== "sqlite" || !existsSync(source.path)) throw new UnusableDatabaseUrl(`--from: no SQLite database at ${from}`);
  if (target.dialect !== "postgres") throw new UnusableDatabaseUrl("--to: give a postgres:// URL");
  await migratePostgres(target.url);
  const sqlite = new Database(source.path, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const tables = parentsFirst();
    // One read transaction on the source: every table and every count from one snapshot, even if an Owo still writes.
    sqlite.exec("begin");
    await client.query("begin");
    for (const table of tables) {
      const { rows } = await client.query(`select exists (select 1 from ${quote(getTableName(table))}) as taken`);
      if ((rows[0] as { taken: boolean }).taken)
        throw new UnusableDatabaseUrl(`--to: table ${getTableName(table)} already has rows; copy only into an empty database`);
    }
    for (const table of tables) await copyTable(sqlite, client, table);
    await client.query("commit");
    const counted: CopiedTable[] = [];
    for (const table of tables) {
      const name = quote(getTableName(table));
      const theirs = (sqlite.prepare(`select count(*) as n from ${name}`).get() as { n: number }).n;
      const ours = Number((await client.query<{ n: string }>(`select count(*) as n from ${name}`)).rows[0]?.n);
      counted.push({ table: getTableName(table), sqlite: theirs, postgres: ours });
    }
    sqlite.exec("commit");
    return counted;
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  } finally {
    await client.end();
    sqlite.close();
  }
}
