// Paystack's settlements read over real HTTP from the Paystack double (its own process, settling from its own books):
// each settlement and its transactions recorded once however often Owo polls, matched to Owo's payments, the merchant's
// other sales on the same account kept as external, the refunds Paystack deducted found through GET /refund, other
// deductions as one adjustment, and a failed settlement booked only once Paystack pays it after all.
import assert from "node:assert/strict";
import { test } from "node:test";
import { call, createTestMerchant } from "../testing/harness";
import { initiateLiveTransfer, liveSuite } from "../testing/live-merchants";
import { eventually } from "../testing/eventually";
import { spawnDouble } from "../testing/processes";
import { ownReference } from "../providers/own-references";
import { clock } from "../clock";
import { HOUR_MS, dayStartOf } from "../payments/calendar";
import { pollSettlements } from "./poll";
import { connectProvider } from "../providers/accounts";

const SECRET_KEY = "sk_live_paystack_settlements";
const live = liveSuite(
  "paystack",
  { secretKey: SECRET_KEY },
  {
    name: "Paystack settlements shop",
    // Grace 0: a credit is not_settled as soon as a settlement of its account is read without it.
    env: { OWO_SETTLEMENT_GRACE_DAYS: "0" },
    flags: { "refund-delay-ms": "50" },
    // Another account in Paystack's own test mode: it settles nothing, so Owo never asks it.
    prepare: async ({ double }) => {
      const other = await createTestMerchant("Paystack test-mode shop");
      const credentials = { secretKey: "sk_test_never_asked" };
      await connectProvider(other.merchantId, { provider: "paystack", credentials, baseUrl: double.url });
    },
  },
);

let n = 0;
const verify = async (ref: string) =>
  (await call(live.owo, "GET", `/api/v3/payments/query/${ref}`, { token: live.m.token })).json.data.payments;

/** A live payment the customer paid at Paystack: Owo's reference and the one Paystack knows it by. */
async function paid(amount: string): Promise<{ ref: string; atPaystack: string }> {
  const ref = `pss-${process.pid}-${++n}`;
  const linking = await initiateLiveTransfer(live.owo, live.m, amount, ref);
  const atPaystack = ownReference("paystack", `${linking}-1`);
  await fetch(`${live.double.url}/_double/transactions/${atPaystack}/pay`, { method: "POST", body: "{}" });
  await eventually(`${ref} credited`, async () => (await verify(ref)).status === "SUCCESSFUL", 20_000);
  return { ref, atPaystack };
}

/** The merchant's own sale on the same Paystack account, not through Owo. */
async function externalSale(reference: string, kobo: number): Promise<void> {
  const res = await fetch(`${live.double.url}/charge`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET_KEY}` },
    body: JSON.stringify({ email: "walkin@example.com", amount: kobo, reference, bank_transfer: {} }),
  });
  assert.equal(res.status, 200);
  await fetch(`${live.double.url}/_double/transactions/${reference}/pay`, { method: "POST", body: "{}" });
}

async function settleAtPaystack(body: Record<string, unknown> = {}): Promise<number> {
  const res = await fetch(`${live.double.url}/_double/settlements`, { method: "POST", body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

type Line = { kind: string; paymentReference: string | null; providerReference: string | null; netAmount: string; matched: boolean };
async function settlementAt(paystackId: number) {
  const list = (await call(live.owo, "GET", "/api/v2/settlements", { token: live.m.token })).json.data.settlements as {
    settlementId: string;
    providerSettlementId: string;
  }[];
  const found = list.filter((s) => s.providerSettlementId === String(paystackId));
  assert.equal(found.length, 1, `settlement ${paystackId} recorded once`);
  return (await call(live.owo, "GET", `/api/v2/settlements/${found[0]?.settlementId}`, { token: live.m.token })).json.data.settlement;
}

const settlementEntries = async () =>
  (
    (await call(live.owo, "GET", "/api/v2/ledger/entries?limit=500", { token: live.m.token })).json.data.entries as { kind: string }[]
  ).filter((e) => e.kind.startsWith("settlement")).length;

test("a day at Paystack settles: Owo's payments matched, a deducted refund found through GET /refund, the merchant's other sale external; polled twice, recorded once", async () => {
  const a = await paid("5000.00");
  const b = await paid("2000.00");
  const refund = await call(live.owo, "POST", `/api/v2/payments/${a.ref}/refunds`, {
    token: live.m.token,
    body: { amount: "1200.50", reason: "out of stock", refundReference: `RFD-${a.ref}` },
  });
  assert.equal(refund.status, 200, refund.text);
  await eventually("refund processed", async () => (await verify(a.ref)).amountRefunded === "1200.50", 20_000);
  await externalSale(`shop-sale-${process.pid}`, 300000);
  const paystackId = await settleAtPaystack();

  const first = await pollSettlements();
  assert.deepEqual([first.accounts, first.created, first.failed], [1, 1, 0], "the test-mode account is never asked");
  const detailReads = async () =>
    ((await (await fetch(`${live.double.url}/_double/requests`)).json()) as { requests: string[] }).requests.filter(
      (r) => r === `GET /settlement/${paystackId}/transactions`,
    ).length;
  assert.equal(await detailReads(), 1);
  const again = await pollSettlements();
  assert.deepEqual([again.read, again.created, again.moved], [0, 0, 0]);
  assert.equal(await detailReads(), 1, "a settlement held as paid that Paystack still lists as paid is not read again");

  const s = await settlementAt(paystackId);
  // ₦5,000 (fee ₦175), ₦2,000 (₦30), the other sale ₦3,000 (₦145); the ₦1,200.50 refund deducted.
  assert.deepEqual(
    [s.status, s.grossAmount, s.feeAmount, s.refundAmount, s.adjustmentAmount, s.netAmount],
    ["paid", "10000.00", "350.00", "1200.50", "0.00", "8449.50"],
  );
  assert.deepEqual(s.reconciliation, { status: "matched", exceptions: 0 });
  const lines = s.lines as Line[];
  assert.deepEqual(
    lines.map((l) => [l.kind, l.paymentReference, l.netAmount, l.matched]),
    [
      ["payment", a.ref, "4825.00", true],
      ["payment", b.ref, "1970.00", true],
      ["external", null, "2855.00", false],
      ["refund", a.ref, "-1200.50", true],
    ],
  );
  assert.equal((await verify(a.ref)).settlementId, s.settlementId);
  assert.equal(await settlementEntries(), 1, "booked once");
  const balances = (await call(live.owo, "GET", "/api/v2/balances", { token: live.m.token })).json.data.balances;
  assert.equal(balances.external, "2855.00");
  assert.equal(balances.providers[0]?.unsettled, "0.00", "everything Paystack held for Owo's payments was paid out");
});

test("a failed settlement is recorded, not booked; when Paystack pays it after all it books once; other deductions are one adjustment", async () => {
  const c = await paid("4000.00");
  const paystackId = await settleAtPaystack({ status: "failed", deductions: 5000 });
  await pollSettlements();
  const failed = await settlementAt(paystackId);
  assert.deepEqual([failed.status, failed.adjustmentAmount, failed.netAmount], ["failed", "50.00", "3790.00"]);
  assert.deepEqual(failed.reconciliation, { status: "matched", exceptions: 0 }, "the deduction is in Paystack's own arithmetic");
  assert.equal((failed.lines as Line[]).at(-1)?.kind, "adjustment");
  assert.equal((await verify(c.ref)).settlementId, null, "a failed settlement paid nothing");
  const before = await settlementEntries();

  await fetch(`${live.double.url}/_double/settlements/${paystackId}`, { method: "POST", body: JSON.stringify({ status: "success" }) });
  const moved = await pollSettlements();
  assert.equal(moved.moved, 1);
  await pollSettlements();
  const paidOut = await settlementAt(paystackId);
  assert.equal(paidOut.status, "paid");
  assert.equal(await settlementEntries(), before + 1, "booked once, when paid");
  assert.equal((await verify(c.ref)).settlementId, paidOut.settlementId);
});

test("a credit Paystack leaves out is not_settled until a later settlement holds it; a line under Owo's prefix for no payment is unknown_payment, its money in suspense", async () => {
  const d = await paid("3000.00");
  await externalSale(ownReference("paystack", `stray-${process.pid}`), 100000);
  const without = await settleAtPaystack({ omit: [d.atPaystack] });
  await pollSettlements();
  const s = await settlementAt(without);
  assert.deepEqual(s.reconciliation, { status: "exceptions", exceptions: 1 });
  assert.deepEqual(
    (s.lines as Line[]).map((l) => [l.kind, l.netAmount]),
    [["unknown", "985.00"]],
  );
  const day = new Date(dayStartOf(clock.now()) + HOUR_MS).toISOString().slice(0, 10);
  const exceptions = async () =>
    (
      (await call(live.owo, "GET", `/api/v2/reconciliation?from=${day}&to=${day}`, { token: live.m.token })).json.data.report
        .exceptions as {
        kind: string;
        paymentReference: string | null;
        resolvedAt: string | null;
      }[]
    ).map((e) => [e.kind, e.paymentReference, e.resolvedAt === null ? "open" : "resolved"]);
  assert.deepEqual((await exceptions()).sort(), [
    ["not_settled", d.ref, "open"],
    ["unknown_payment", null, "open"],
  ]);
  assert.equal((await call(live.owo, "GET", "/api/v2/balances", { token: live.m.token })).json.data.balances.suspense, "985.00");

  await settleAtPaystack();
  await pollSettlements();
  assert.deepEqual((await exceptions()).sort(), [
    ["not_settled", d.ref, "resolved"],
    ["unknown_payment", null, "open"],
  ]);
});

test("each settlement is recorded as it is read: one whose transactions Paystack fails to give is read at the next pass, and the others are kept", async () => {
  await paid("1500.00");
  const older = await settleAtPaystack();
  await paid("2500.00");
  const newer = await settleAtPaystack();
  // Paystack lists the newest first: the newer settlement's transactions answer a 5xx, then the older one is read.
  const fault = { kind: "5xx", path: `/settlement/${newer}/transactions` };
  assert.equal((await fetch(`${live.double.url}/_double/faults`, { method: "POST", body: JSON.stringify(fault) })).status, 200);
  const first = await pollSettlements();
  assert.deepEqual([first.created, first.failed], [1, 1]);
  assert.equal((await settlementAt(older)).status, "paid", "recorded though the one before it could not be read");
  const second = await pollSettlements();
  assert.deepEqual([second.read, second.created, second.failed], [1, 1, 0], "only the one not yet held is read");
  assert.equal((await settlementAt(newer)).status, "paid");
});

test("the Paystack double holds GET /settlement to Paystack's OpenAPI parameters and settles nothing in test mode", async (t) => {
  const { openApiDocument } = (await (await fetch(`${live.double.url}/_double`)).json()) as { openApiDocument: string | null };
  if (!openApiDocument) return t.skip("../shared/providers/paystack-openapi.yaml is absent: nothing to hold the parameters to");
  const wrong = await fetch(`${live.double.url}/settlement?perPage=many`, { headers: { authorization: `Bearer ${SECRET_KEY}` } });
  assert.equal(wrong.status, 400);
  assert.match(((await wrong.json()) as { message: string }).message, /perPage/);
  const unknown = await fetch(`${live.double.url}/settlement/abc/transactions`, { headers: { authorization: `Bearer ${SECRET_KEY}` } });
  assert.equal(unknown.status, 400, "the settlement id is an integer");
  const testMode = await spawnDouble("paystack", { "secret-key": "sk_test_settles_nothing" });
  try {
    const res = await fetch(`${testMode.url}/_double/settlements`, { method: "POST", body: "{}" });
    assert.equal(res.status, 409);
  } finally {
    await testMode.stop();
  }
});
