// The day's report over a faulty sandbox settlement: figures from the books, the identity, every exception it raised.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { clock } from "../clock";
import { call } from "../testing/harness";
import { startInitiating, ussdBody, type InitiatingMerchant } from "../testing/initiation";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating();
});
after(() => s.owo.stop());

async function paid(amount: string): Promise<string> {
  const body = ussdBody(s.merchant.publicKey, { amount });
  assert.equal((await call(s.owo, "POST", "/api/v2/payments/initiates", { token: s.token, body })).status, 200);
  const ref = String(body.paymentReference);
  assert.equal(
    (await call(s.owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token: s.token, body: { outcome: "pay" } })).status,
    200,
  );
  return ref;
}

const kobo = (a: string) => Math.round(Number(a) * 100);
const lagosToday = () => new Date(clock.now() + 3_600_000).toISOString().slice(0, 10);

test("the report's figures are the books' movements, its identity holds, and it lists the exceptions", async () => {
  const settledOne = await paid("4000.00");
  const left = await paid("2000.00");
  const faults = { omit: [left], shortBy: "10.00", unknownLine: true, feeBy: "5.00", grossBy: "1.00", adjustment: "50.00" };
  assert.equal((await call(s.owo, "POST", "/api/v2/sandbox/settlements", { token: s.token, body: faults })).status, 200);
  const day = lagosToday();
  const res = await call(s.owo, "GET", `/api/v2/reconciliation?from=${day}&to=${day}`, { token: s.token });
  assert.equal(res.status, 200, res.text);
  const r = res.json.data.report;
  assert.deepEqual(
    [r.opening, r.credits, r.fees, r.refunds, r.adjustments, r.paidOut, r.external, r.suspense, r.closing],
    ["0.00", "6000.00", "190.00", "0.00", "50.00", "4761.00", "0.00", "985.00", "1984.00"],
  );
  const lhs =
    kobo(r.opening) +
    kobo(r.credits) -
    kobo(r.fees) -
    kobo(r.refunds) -
    kobo(r.adjustments) -
    kobo(r.paidOut) +
    kobo(r.external) +
    kobo(r.suspense);
  assert.equal(lhs, kobo(r.closing));
  assert.deepEqual(r.exceptions.map((e: { kind: string; paymentReference: string | null }) => [e.kind, e.paymentReference]).sort(), [
    ["amount_mismatch", settledOne],
    ["fee_mismatch", settledOne],
    ["net_mismatch", null],
    ["unknown_payment", null],
  ]);
  assert.ok(r.ledgerHead.sequence >= 3);
  const bad = await call(s.owo, "GET", "/api/v2/reconciliation?from=yesterday", { token: s.token });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json.data.errors.map((e: { field: string }) => e.field).sort(), ["from", "to"]);
});
