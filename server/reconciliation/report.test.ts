// The day's report over a faulty sandbox settlement: figures from the books, the identity, every exception it raised.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { clock } from "../clock";
import { call } from "../testing/harness";
import { paidInSandbox, startInitiating, ussdBody, type InitiatingMerchant } from "../testing/initiation";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating();
});
after(() => s.owo.stop());

const paid = (amount: string) => paidInSandbox(s, ussdBody(s.merchant.publicKey, { amount }));

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
  // Writing off the short payout books its ₦10.00 as a cost; the exception stays in the report, marked resolved.
  const short = r.exceptions.find((e: { kind: string }) => e.kind === "net_mismatch");
  const resolve = (body: unknown) =>
    call(s.owo, "POST", `/api/v2/reconciliation/exceptions/${short.exceptionId}/resolve`, { token: s.token, body });
  assert.equal((await resolve({ writeOff: true })).status, 400, "a note is required");
  const done = await resolve({ note: "Paystack support: short by bank charge", writeOff: true });
  assert.equal(done.status, 200, done.text);
  assert.equal(done.json.data.exception.note, "Paystack support: short by bank charge");
  assert.ok(done.json.data.exception.resolvedAt);
  assert.equal((await resolve({ note: "again" })).status, 409);
  const later = (await call(s.owo, "GET", `/api/v2/reconciliation?from=${day}&to=${day}`, { token: s.token })).json.data.report;
  assert.deepEqual([later.adjustments, later.closing], ["60.00", "1974.00"]);
  assert.ok(
    later.exceptions.some((e: { exceptionId: string; resolvedAt: string | null }) => e.exceptionId === short.exceptionId && e.resolvedAt),
  );
  const bad = await call(s.owo, "GET", "/api/v2/reconciliation?from=yesterday", { token: s.token });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json.data.errors.map((e: { field: string }) => e.field).sort(), ["from", "to"]);
});

test("a report's days run forwards and must be real days; a field it does not take is ignored", async () => {
  const backwards = await call(s.owo, "GET", "/api/v2/reconciliation?from=2026-11-20&to=2026-11-19", { token: s.token });
  assert.deepEqual([backwards.status, backwards.json.data.errors], [400, [{ field: "from", message: "must not be later than to" }]]);
  const day = lagosToday();
  const plain = await call(s.owo, "GET", `/api/v2/reconciliation?from=${day}&to=${day}`, { token: s.token });
  const extra = await call(s.owo, "GET", `/api/v2/reconciliation?from=${day}&to=${day}&_=1`, { token: s.token });
  assert.equal(extra.status, 200, extra.text);
  assert.deepEqual(extra.json.data.report.closing, plain.json.data.report.closing);
});
