// Migrations apply to a database that already holds payments with their timelines, not only to an empty one:
// a migration that rebuilds the payments table must carry every row and every key across.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { migrateDatabase, db, closeDatabase } from "./client";
import { payments, paymentEvents } from "./schema";

test("every migration applies over rows written by the ones before it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "owo-migrate-"));
  const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: { idx: number; tag: string }[] };
  const before = join(dir, "before");
  cpSync("db/migrations", before, { recursive: true });
  const last = journal.entries.at(-1);
  assert.ok(last);
  // The folder as it stood one migration ago.
  rmSync(join(before, `${last.tag}.sql`));
  writeFileSync(join(before, "meta/_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }));
  const file = join(dir, "owo.db");
  const old = new Database(file);
  old.pragma("foreign_keys = ON");
  migrate(drizzle(old), { migrationsFolder: before });
  old.exec(`insert into merchants (id, name, created_at) values ('mer_1', 'Old Store', 1)`);
  old.exec(`insert into payments (merchant_id, mode, payment_reference, linking_reference, payment_type, status, amount_kobo, currency, country, full_name,
    mobile_number, email, callback_url, redirect_url, request_fingerprint, answer_json, source, created_at, updated_at, expires_at)
    values ('mer_1', 'test', 'old-1', 'OWO1', 'USSD', 'SUCCESSFUL', 150000, 'NGN', 'NG', 'Ada', '0801', 'a@b.ng', 'https://s.ng/c', 'https://s.ng/r', '[]', '{}', 'rest', 1, 2, 3)`);
  old.exec(
    `insert into payment_events (payment_id, sequence, type, status, detail_json, created_at) values (1, 1, 'initiated', 'PENDING', '{}', 1)`,
  );
  old.close();

  process.env.DATABASE_URL = file;
  await migrateDatabase();
  const rows = await db().select().from(payments);
  assert.deepEqual(
    rows.map((r) => [r.paymentReference, r.paymentType, r.status, r.amountKobo]),
    [["old-1", "USSD", "SUCCESSFUL", 150000]],
  );
  assert.equal((await db().select().from(paymentEvents)).length, 1);
  await closeDatabase();
  rmSync(dir, { recursive: true, force: true });
});
