// The dialect is chosen when the data layer is first used, not when it is imported (db/schema.ts): a process (a test,
// the bench, a tool) may import Owo before it sets DATABASE_URL, and then runs on the database it names.
// dialect: sqlite only — the file starts on SQLite's default and moves to its own throwaway PostgreSQL itself.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import { closeDatabase, db, dialect, migrateDatabase, write } from "./client";
import { merchants } from "./schema";
import { onPostgres, startPostgres, type PostgresServer } from "./throwaway-postgres";

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(async () => {
  await closeDatabase();
  server?.stop();
});

test("imported while DATABASE_URL named no database, the data layer runs on the PostgreSQL named afterwards", async () => {
  assert.ok(!process.env.DATABASE_URL?.startsWith("postgres"), "the file starts on SQLite (DATABASE_URL unset or a file)");
  process.env.DATABASE_URL = await server.createDatabase("owo_chosen_late");
  await migrateDatabase();
  await write((tx) => tx.insert(merchants).values({ id: "mer_late", name: "Late Store", createdAt: 1 }));
  const [read] = await db().select({ name: merchants.name }).from(merchants).where(eq(merchants.id, "mer_late"));
  assert.equal(read?.name, "Late Store");
  assert.equal(dialect(), "postgres");
  const inPostgres = await onPostgres(process.env.DATABASE_URL, (c) => c.query("select name from merchants where id = 'mer_late'"));
  assert.deepEqual(inPostgres.rows, [{ name: "Late Store" }]);
});
