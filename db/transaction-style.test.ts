// One transaction style (db/client.ts): inside write() or readSnapshot() the one handed to the body is the only way to
// its transaction. db(), a nested write() and readSnapshot() refuse there, so a helper that reaches the open transaction by itself fails its test; in
// production they warn once and keep their old meaning, so a path no test took does not start failing.
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { closeDatabase, db, joinQueue, migrateDatabase, readSnapshot, write, type Db } from "./client";
import { merchants } from "./schema";

// Read when the database is first opened (db/client.ts opens lazily), not at import.
const dir = mkdtempSync(join(tmpdir(), "owo-tx-style-"));
process.env.DATABASE_URL = join(dir, "owo.db");
await migrateDatabase();

after(async () => {
  await closeDatabase();
  rmSync(dir, { recursive: true, force: true });
});

const names = async (q: Db) => (await q.select({ name: merchants.name }).from(merchants)).map((m) => m.name);

test("inside write(), db(), a nested write() and readSnapshot() refuse, and the transaction rolls back; db() inside readSnapshot() too", async () => {
  const refusals: [string, RegExp][] = [
    ["db()", /db\(\) inside write\(\)/],
    ["write()", /write\(\) inside write\(\)/],
    ["readSnapshot()", /readSnapshot\(\) inside write\(\)/],
  ];
  for (const [reach, refusal] of refusals) {
    await assert.rejects(
      write(async (tx) => {
        await tx.insert(merchants).values({ id: `mer_${reach}`, name: reach, createdAt: 1 });
        if (reach === "db()") await db().select().from(merchants);
        if (reach === "write()") await write(async (inner) => inner.select().from(merchants));
        if (reach === "readSnapshot()") await readSnapshot(async (q) => q.select().from(merchants));
      }),
      refusal,
    );
  }
  assert.deepEqual(await names(db()), [], "nothing of the refused bodies committed");
  await assert.rejects(
    readSnapshot(async () => db().select().from(merchants)),
    /db\(\) inside readSnapshot\(\)/,
  );
});

test("joinQueue takes the transaction it is called in, and no other", async () => {
  const reader = db();
  await write(async (tx) => {
    assert.equal(joinQueue(tx, "ledger:mer_1:test"), null, "SQLite runs every writer in turn already");
    assert.throws(() => joinQueue(reader, "ledger:mer_1:test"), /outside its write transaction/);
  });
  await readSnapshot(async (q) => assert.throws(() => joinQueue(q, "ledger:mer_1:test"), /outside its write transaction/));
});

test("outside write(), db() reads the committed state, and readSnapshot() one committed state", async () => {
  await write(async (tx) => tx.insert(merchants).values({ id: "mer_1", name: "Ada's Store", createdAt: 1 }));
  assert.deepEqual(await names(db()), ["Ada's Store"]);
  assert.deepEqual(await readSnapshot(names), ["Ada's Store"]);
});

test("in production, reaching the open transaction is told once as a warning and reads that transaction, as before", async (t) => {
  // Next's types declare NODE_ENV read-only; the process's environment is not.
  Object.assign(process.env, { NODE_ENV: "production" });
  t.after(() => Reflect.deleteProperty(process.env, "NODE_ENV"));
  const warned = once(process, "warning");
  const seen = await write(async (tx) => {
    await tx.insert(merchants).values({ id: "mer_2", name: "Bola's Shop", createdAt: 2 });
    return names(db());
  });
  assert.deepEqual(seen.sort(), ["Ada's Store", "Bola's Shop"], "the body's own uncommitted row is seen");
  const [warning] = (await warned) as [Error & { code?: string }];
  assert.equal(warning.code, "OWO_AMBIENT_TRANSACTION");
  assert.match(warning.message, /db\(\) inside write\(\)/);
});
