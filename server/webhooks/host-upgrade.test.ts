// The upgrade that gave deliveries their `host` (claims group by it, server/webhooks/deliveries.ts): deliveries already
// waiting are given the host of their url on both databases, so a backlog made before the upgrade is still claimed
// host by host, not as one host named "".
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import { hostKey } from "./deliveries";
import { onPostgres, startPostgres } from "../../db/throwaway-postgres";

const URLS = ["https://Shop.Example.ng:8443/owo/callback?order=1", "http://127.0.0.1:9/cb", "https://hooks.example.com"];
const dir = mkdtempSync(join(tmpdir(), "owo-deliveries-host-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of `folder` as it stood before the migration whose SQL first names deliveries' host. */
function foldersAroundHost(folder: string): { before: string; after: string } {
  const journal = JSON.parse(readFileSync(join(folder, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => /ADD (COLUMN )?["`]host["`]/.test(readFileSync(join(folder, `${e.tag}.sql`), "utf8")));
  assert.ok(at > 0, `${folder}: no migration adds deliveries' host`);
  const before = join(dir, `${folder.replace(/\W/g, "-")}-before`);
  cpSync(folder, before, { recursive: true });
  for (const e of journal.entries.slice(at)) rmSync(join(before, `${e.tag}.sql`));
  writeFileSync(join(before, "meta/_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return { before, after: folder };
}

/** One merchant, one payment, one event and a pending delivery to each of URLS, as the schema stood before. */
const OLD_ROWS = [
  `insert into merchants (id, name, created_at) values ('mer_1', 'Old Store', 1)`,
  `insert into payments (merchant_id, mode, payment_reference, linking_reference, payment_type, status, amount_kobo, currency, country,
    full_name, mobile_number, email, callback_url, redirect_url, request_fingerprint, answer_json, source, created_at, updated_at, expires_at)
    values ('mer_1', 'test', 'old-1', 'OWO1', 'USSD', 'SUCCESSFUL', 150000, 'NGN', 'NG', 'Ada', '0801', 'a@b.ng', 'https://s.ng/c',
    'https://s.ng/r', '[]', '{}', 'rest', 1, 2, 3)`,
  `insert into outbox (event_id, payment_id, merchant_id, mode, event, sequence, payload_json, created_at, fanned_out_at)
    values ('evt_1', 1, 'mer_1', 'test', 'payment.successful', 2, '{}', 1, 1)`,
  ...URLS.map(
    (url) => `insert into deliveries (outbox_id, merchant_id, destination, url, status, next_attempt_at, created_at)
      values (1, 'mer_1', 'callback', '${url}', 'pending', 1, 1)`,
  ),
];

const expected = URLS.map((url) => [url, hostKey(url)]);

test("SQLite: deliveries waiting before the upgrade get their url's host", () => {
  const { before, after } = foldersAroundHost("db/migrations");
  const sqlite = new Database(join(dir, "owo.db"));
  migrate(drizzle(sqlite), { migrationsFolder: before });
  for (const statement of OLD_ROWS) sqlite.exec(statement);
  migrate(drizzle(sqlite), { migrationsFolder: after });
  const rows = sqlite.prepare("select url, host from deliveries order by id").raw().all();
  sqlite.close();
  assert.deepEqual(rows, expected);
});

test("PostgreSQL: deliveries waiting before the upgrade get their url's host", async () => {
  const { before, after } = foldersAroundHost("db/migrations-pg");
  const server = await startPostgres();
  try {
    const url = await server.createDatabase("deliveries_host");
    const rows = await onPostgres(url, async (client) => {
      await migratePostgres(drizzlePostgres(client), { migrationsFolder: before });
      for (const statement of OLD_ROWS) await client.query(statement);
      await migratePostgres(drizzlePostgres(client), { migrationsFolder: after });
      return (await client.query({ text: "select url, host from deliveries order by id", rowMode: "array" })).rows;
    });
    assert.deepEqual(rows, expected);
  } finally {
    server.stop();
  }
});
