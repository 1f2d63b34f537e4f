// `npm run owo -- db copy`: a SQLite deployment (the demo's weeks of payments) moved into an empty PostgreSQL, every
// row alike, the counts verified, ids continuing after the copied ones; a target with rows is refused untouched.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import Database from "better-sqlite3";
import type pg from "pg";
import { onPostgres, startPostgres, type PostgresServer } from "../../db/throwaway-postgres";
import { TEST_ENV, tempDataDir } from "../testing/harness";
import { runCli } from "../testing/processes";
import { copySqliteToPostgres } from "../../db/copy";

const dataDir = tempDataDir();
const file = join(dataDir, "owo.db");
let server: PostgresServer;
let target: string;

before(async () => {
  const seeded = spawnSync(process.execPath, ["--import", "tsx", "server/demo/seed.ts"], {
    env: { ...process.env, ...TEST_ENV, DATABASE_URL: file },
    encoding: "utf8",
  });
  assert.equal(seeded.status, 0, seeded.stderr);
  server = await startPostgres();
  target = await server.createDatabase("moved");
});
after(() => {
  server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const onTarget = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => onPostgres(target, work);

/** PostgreSQL hands bigint back as a string and booleans as such; SQLite has numbers and 0/1 for both. */
function asSqlite(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  return value;
}

test("every row of every table arrives as it was, and the counts are verified", async () => {
  const copied = runCli(["db", "copy", "--from", file, "--to", target, "--json"], dataDir);
  assert.equal(copied.status, 0, copied.stderr);
  const report = JSON.parse(copied.stdout.trim().split("\n").pop() ?? "") as {
    tables: { table: string; sqlite: number; postgres: number }[];
    verified: boolean;
  };
  assert.equal(report.verified, true);
  const source = new Database(file, { readonly: true });
  const tables = (
    source
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name <> '__drizzle_migrations' order by name",
      )
      .all() as { name: string }[]
  ).map((t) => t.name);
  assert.deepEqual(report.tables.map((t) => t.table).sort(), tables, "every table is counted");
  for (const t of report.tables) assert.equal(t.postgres, t.sqlite, t.table);
  assert.ok((report.tables.find((t) => t.table === "payments")?.postgres ?? 0) > 100, "the demo's payments were there to copy");
  for (const table of ["merchants", "payments", "payment_events", "users", "api_secrets"]) {
    const theirs = source.prepare(`select * from ${table} order by rowid`).all() as Record<string, unknown>[];
    const ours = await onTarget((c) => c.query<Record<string, unknown>>(`select * from ${table}`));
    const key = (row: Record<string, unknown>) =>
      JSON.stringify(
        Object.keys(row)
          .sort()
          .map((k) => [k, asSqlite(row[k])]),
      );
    assert.deepEqual(ours.rows.map(key).sort(), theirs.map(key).sort(), `${table}: the same rows, column for column`);
  }
  const maxId = (source.prepare("select max(id) as id from payments").get() as { id: number }).id;
  const next = await onTarget((c) => c.query<{ id: string }>("select nextval(pg_get_serial_sequence('payments', 'id')) as id"));
  assert.equal(Number(next.rows[0]?.id), maxId + 1, "new payments continue after the copied ids");
  source.close();
});

test("npm run db:migrate prepares a PostgreSQL database ahead of time, and a copy into it still counts as empty", async () => {
  const url = await server.createDatabase("prepared");
  const migrated = spawnSync(process.execPath, ["--import", "tsx", "db/migrate-cli.ts"], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  assert.equal(migrated.status, 0, migrated.stderr);
  assert.match(migrated.stdout, /migrated 127\.0\.0\.1:\d+\/prepared/);
  const copied = runCli(["db", "copy", "--from", file, "--to", url], dataDir);
  assert.equal(copied.status, 0, copied.stderr);
  assert.match(copied.stdout, /Every row copied; the counts agree\./);
  const refused = spawnSync(process.execPath, ["--import", "tsx", "db/migrate-cli.ts"], {
    env: { ...process.env, DATABASE_URL: "mysql://owo@db/owo" },
    encoding: "utf8",
  });
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^DATABASE_URL: mysql:\/\/ is not a database Owo can use/);
});

test("a copy taken while an Owo still writes is one consistent snapshot, and its counts agree", async () => {
  const live = await server.createDatabase("live");
  const writer = new Database(file);
  let added = 0;
  const writing = setInterval(() => {
    writer.prepare("insert into merchants (id, name, created_at) values (?, 'Arrived during the copy', 0)").run(`m_live_${++added}`);
  }, 1);
  const before = (writer.prepare("select count(*) as n from merchants").get() as { n: number }).n;
  let counted;
  try {
    counted = await copySqliteToPostgres(file, live);
  } finally {
    clearInterval(writing);
  }
  const merchantsAfter = (writer.prepare("select count(*) as n from merchants").get() as { n: number }).n;
  writer.close();
  for (const c of counted) assert.equal(c.postgres, c.sqlite, c.table);
  const copiedMerchants = counted.find((c) => c.table === "merchants")?.postgres ?? 0;
  assert.ok(
    copiedMerchants >= before && copiedMerchants < merchantsAfter,
    `merchants kept arriving (${before} → ${merchantsAfter}) while ${copiedMerchants} were copied`,
  );
});

test("a target that already has rows is refused and left as it was; a non-PostgreSQL target is refused", async () => {
  const before = await onTarget((c) => c.query<{ n: string }>("select count(*) as n from payments"));
  const again = runCli(["db", "copy", "--from", file, "--to", target], dataDir);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /already has rows; copy only into an empty database/);
  const after = await onTarget((c) => c.query<{ n: string }>("select count(*) as n from payments"));
  assert.equal(after.rows[0]?.n, before.rows[0]?.n);
  const toFile = runCli(["db", "copy", "--from", file, "--to", join(dataDir, "copy.db")], dataDir);
  assert.equal(toFile.status, 1);
  assert.match(toFile.stderr, /--to: give a postgres:\/\/ URL/);
  const missing = runCli(["db", "copy", "--from", join(dataDir, "nothing.db"), "--to", target], dataDir);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /--from: no SQLite database at/);
});
