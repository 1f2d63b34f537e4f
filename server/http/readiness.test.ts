// /api/ready: what a load balancer asks before sending traffic: the database answers, names itself, and carries
// every migration this build ships; /api/health stays the bare liveness answer.
// dialect: sqlite only — it reads the database file through SQLite itself (rawSqlite).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { call, startOwo, type Owo } from "../testing/harness";
import { rawSqlite as sqlite } from "../../db/client";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const shipped = (JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] }).entries.length;

test("ready names the database it runs on and counts the migrations applied against those shipped", async () => {
  const ready = await call(owo, "GET", "/api/ready");
  assert.equal(ready.status, 200);
  assert.equal(ready.json.status, "ready");
  assert.equal(ready.json.database.dialect, "sqlite");
  assert.match(ready.json.database.version, /^3\.\d+\.\d+$/, "the database's own answer to its version");
  assert.deepEqual(ready.json.migrations, { applied: shipped, expected: shipped });
  assert.deepEqual((await call(owo, "GET", "/api/health")).json, { status: "ok" });
});

test("a database whose migrations fall behind the build is not ready (503), while health stays live", async () => {
  const last = sqlite().prepare("select id, hash, created_at from __drizzle_migrations order by created_at desc limit 1").get() as {
    id: number | null;
    hash: string;
    created_at: number;
  };
  sqlite().prepare("delete from __drizzle_migrations where created_at = ?").run(last.created_at);
  try {
    const ready = await call(owo, "GET", "/api/ready");
    assert.equal(ready.status, 503);
    assert.equal(ready.json.status, "not ready");
    assert.equal(ready.json.reason, "migrations are not current");
    assert.deepEqual(ready.json.migrations, { applied: shipped - 1, expected: shipped });
    assert.equal((await call(owo, "GET", "/api/health")).status, 200);
  } finally {
    sqlite().prepare("insert into __drizzle_migrations (id, hash, created_at) values (?, ?, ?)").run(last.id, last.hash, last.created_at);
  }
  assert.equal((await call(owo, "GET", "/api/ready")).status, 200);
});
