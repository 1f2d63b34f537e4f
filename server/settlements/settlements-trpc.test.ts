// tRPC serves settlements from the same core as REST: the same settlement, the same refusals.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call } from "../testing/harness";
import { paidInSandbox, startInitiating, transferBody, trpcFailure, type InitiatingMerchant } from "../testing/initiation";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating();
});
after(() => s.owo.stop());

test("sandbox.settle, settlements.list and settlements.byId answer what REST answers", async () => {
  await paidInSandbox(s, transferBody(s.merchant.publicKey, { amount: "2500.00" }));
  const bad = await trpcFailure(s.trpc.sandbox.settle.mutate({ shortBy: "lots" }));
  assert.equal(bad.apiCode, "S5");
  assert.deepEqual(
    bad.errors.map((e) => e.field),
    ["shortBy"],
  );
  const settled = await s.trpc.sandbox.settle.mutate({ adjustment: "50.00" });
  assert.equal(settled.netAmount, "2312.50", "₦2,500.00 less ₦137.50 fee less ₦50.00 stamp duty");
  assert.deepEqual(await s.trpc.settlements.byId.query({ settlementId: settled.settlementId }), settled);
  const rest = await call(s.owo, "GET", `/api/v2/settlements/${settled.settlementId}`, { token: s.token });
  assert.deepEqual(rest.json.data.settlement, settled);
  const page = await s.trpc.settlements.list.query({ status: "paid" });
  assert.deepEqual(
    page.settlements.map((x) => x.settlementId),
    [settled.settlementId],
  );
  assert.equal((await trpcFailure(s.trpc.settlements.byId.query({ settlementId: "stl_nosuchsettlement000000" }))).httpStatus, 404);
});
