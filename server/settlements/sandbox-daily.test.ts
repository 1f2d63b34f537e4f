// The sandbox bank's own 00:00 Africa/Lagos run: the days before are settled once per merchant, today's credits wait.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { clock } from "../clock";
import { DAY_MS, dayStartOf } from "../payments/calendar";
import { call } from "../testing/harness";
import { paidInSandbox, startInitiating, ussdBody, type InitiatingMerchant } from "../testing/initiation";
import { settleSandboxDaily } from "./sandbox";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating();
});
after(() => s.owo.stop());

const paid = (amount: string) => paidInSandbox(s, ussdBody(s.merchant.publicKey, { amount }));

const settled = async () =>
  (await call(s.owo, "GET", "/api/v2/settlements", { token: s.token })).json.data.settlements as {
    settlementId: string;
    netAmount: string;
    settledAt: string;
  }[];

test("credits of days gone by are settled at the first pass after Lagos midnight, once; today's wait", async () => {
  await paid("1500.00");
  assert.equal(await settleSandboxDaily(clock.now()), 0, "today's credit waits for tomorrow");
  assert.equal((await settled()).length, 0);
  const tomorrow = dayStartOf(clock.now()) + DAY_MS + 60_000;
  assert.ok((await settleSandboxDaily(tomorrow)) >= 1);
  const [first] = await settled();
  assert.equal(first?.netAmount, "1477.50");
  // Paid out when the pass ran, as the ledger's entry is posted: the Settlements page and the books agree on its day.
  assert.equal(first?.settledAt, new Date(tomorrow).toISOString());
  const [entry] = (await call(s.owo, "GET", "/api/v2/ledger/entries?limit=1", { token: s.token })).json.data.entries;
  assert.deepEqual([entry.kind, entry.settlementId, entry.postedAt], ["settlement", first?.settlementId, first?.settledAt]);
  assert.equal(await settleSandboxDaily(tomorrow + 5 * 60_000), 0, "a later pass (another instance, a restart) settles nothing twice");
  assert.equal((await settled()).length, 1);
});
