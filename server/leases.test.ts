// One loop per database (requery, sweeper): the lease row lets one holder at a time run passes, and frees itself when it runs out.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually } from "./testing/eventually";
import { startOwo, type Owo } from "./testing/harness";
import { holdLease } from "./leases";
import { dialect } from "../db/client";
import { advisoryLoopLocks, loopLockKey } from "../db/advisory-locks";
import { default as pg } from "pg";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

test("a second holder is refused while the first one's lease runs, and takes over once it has run out", async () => {
  // A day ahead: whatever lease this process's own loop took meanwhile has run out by then, and it cannot take one back.
  const now = Date.now() + 86_400_000;
  assert.equal(await holdLease("requery", "process-a", now, 30), true);
  assert.equal(await holdLease("requery", "process-b", now + 1_000, 30), false, "b waits while a holds it");
  assert.equal(await holdLease("requery", "process-a", now + 2_000, 30), true, "a renews its own lease");
  assert.equal(await holdLease("requery", "process-b", now + 33_000, 30), true, "a's lease ran out: b takes over");
  assert.equal(await holdLease("requery", "process-a", now + 34_000, 30), false);
  assert.equal(await holdLease("sweeper", "process-a", now + 34_000, 30), true, "each loop has a lease of its own");
});

test("on PostgreSQL one session at a time holds a loop's lock: kept while held, handed on by release, dropped with the session", async (t) => {
  if (dialect() !== "postgres") return t.skip("SQLite has no session locks: its loops hold the lease rows above");
  // Two processes' locks, as two instances hold them: each its own session.
  const a = advisoryLoopLocks(owo.databaseUrl, 5_000);
  const b = advisoryLoopLocks(owo.databaseUrl, 5_000);
  const admin = new pg.Client({ connectionString: owo.databaseUrl });
  await admin.connect();
  try {
    assert.equal(await a.hold("test-loop"), true);
    assert.equal(await a.hold("test-loop"), true, "a keeps it");
    assert.equal(await b.hold("test-loop"), false, "b is refused while a holds it");
    await a.release("test-loop");
    assert.equal(await b.hold("test-loop"), true, "a let go: b takes it");
    // b's session ends as a killed process's does: PostgreSQL drops its lock with it, and a takes it at once.
    const key = loopLockKey("test-loop");
    const ended = await admin.query(
      "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and granted and classid = $1::oid and objid = $2::oid",
      [((key >> 32n) & 0xffffffffn).toString(), (key & 0xffffffffn).toString()],
    );
    assert.equal(ended.rowCount, 1);
    const started = Date.now();
    await eventually("a to take the loop once b's session ended", () => a.hold("test-loop"), 2_000);
    assert.equal(await a.hold("test-loop"), true, `a took it ${Date.now() - started} ms after b's session ended`);
    assert.equal(await b.hold("test-loop").catch(() => false), false, "b finds its session gone, and the loop taken");
    assert.equal(await b.hold("test-loop"), false, "b, on a new session, is refused");
  } finally {
    await admin.end();
    await a.close();
    await b.close();
  }
});
