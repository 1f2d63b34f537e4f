// One loop per database (requery, sweeper): the lease row lets one holder at a time run passes, and frees itself when it runs out.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startOwo, type Owo } from "./testing/harness";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

test("a second holder is refused while the first one's lease runs, and takes over once it has run out", async () => {
  const { holdLease } = await import("./leases");
  // A day ahead: whatever lease this process's own loop took meanwhile has run out by then, and it cannot take one back.
  const now = Date.now() + 86_400_000;
  assert.equal(await holdLease("requery", "process-a", now, 30), true);
  assert.equal(await holdLease("requery", "process-b", now + 1_000, 30), false, "b waits while a holds it");
  assert.equal(await holdLease("requery", "process-a", now + 2_000, 30), true, "a renews its own lease");
  assert.equal(await holdLease("requery", "process-b", now + 33_000, 30), true, "a's lease ran out: b takes over");
  assert.equal(await holdLease("requery", "process-a", now + 34_000, 30), false);
  assert.equal(await holdLease("sweeper", "process-a", now + 34_000, 30), true, "each loop has a lease of its own");
});
