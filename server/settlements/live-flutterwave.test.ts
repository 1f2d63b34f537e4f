// Flutterwave's settlements read over real HTTP from the Flutterwave double (its own process, settling from its own
// books): a flagged settlement is withheld and books nothing until Flutterwave releases it; paid to the Flutterwave
// wallet (`autowallet`) it books to the wallet; each transaction's stamp duty is an adjustment, the refund it deducted
// is found through refund_meta, the merchant's other sale on the same account is external; polled twice, recorded once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { call } from "../testing/harness";
import { initiateLiveTransfer, liveSuite } from "../testing/live-merchants";
import { eventually } from "../testing/eventually";
import { spawnDouble } from "../testing/processes";
import { ownReference } from "../providers/own-references";
import { pollSettlements } from "./poll";

const KEYS = { secretKey: "FLWSECK-flw-settlements-X", secretHash: "flw-settlements-hash" };
const live = liveSuite("flutterwave", KEYS, { name: "Flutterwave settlements shop", flags: { "refund-delay-ms": "50" } });

let n = 0;
const verify = async (ref: string) =>
  (await call(live.owo, "GET", `/api/v3/payments/query/${ref}`, { token: live.m.token })).json.data.payments;

async function paid(amount: string): Promise<string> {
  const ref = `fls-${process.pid}-${++n}`;
  const linking = await initiateLiveTransfer(live.owo, live.m, amount, ref);
  const atFlutterwave = ownReference("flutterwave", `${linking}-1`);
  await fetch(`${live.double.url}/_double/transactions/${atFlutterwave}/pay`, { method: "POST", body: "{}" });
  await eventually(`${ref} credited`, async () => (await verify(ref)).status === "SUCCESSFUL", 20_000);
  return ref;
}

type Line = { kind: string; paymentReference: string | null; netAmount: string };
async function settlementAt(flutterwaveId: number) {
  const list = (await call(live.owo, "GET", "/api/v2/settlements", { token: live.m.token })).json.data.settlements as {
    settlementId: string;
    providerSettlementId: string;
  }[];
  const found = list.filter((s) => s.providerSettlementId === String(flutterwaveId));
  assert.equal(found.length, 1, `settlement ${flutterwaveId} recorded once`);
  return (await call(live.owo, "GET", `/api/v2/settlements/${found[0]?.settlementId}`, { token: live.m.token })).json.data.settlement;
}

test("a flagged settlement to the wallet is withheld until Flutterwave releases it; stamp duty, a deducted refund and the merchant's other sale all reconcile", async () => {
  const a = await paid("12000.00");
  const b = await paid("5000.00");
  const refund = await call(live.owo, "POST", `/api/v2/payments/${b}/refunds`, {
    token: live.m.token,
    body: { amount: "1000.00", reason: "damaged", refundReference: `RFD-${b}` },
  });
  assert.equal(refund.status, 200, refund.text);
  await eventually("refund processed", async () => (await verify(b)).amountRefunded === "1000.00", 20_000);
  const sale = `shop-sale-${process.pid}`;
  const charged = await fetch(`${live.double.url}/v3/charges?type=bank_transfer`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEYS.secretKey}` },
    body: JSON.stringify({ tx_ref: sale, amount: "2000.00", currency: "NGN", email: "walkin@example.com" }),
  });
  assert.equal(charged.status, 200);
  await fetch(`${live.double.url}/_double/transactions/${sale}/pay`, { method: "POST", body: "{}" });

  const settled = await fetch(`${live.double.url}/_double/settlements`, {
    method: "POST",
    body: JSON.stringify({ destination: "autowallet", status: "pending", flag: "Suspicious volume: send KYC documents" }),
  });
  const flutterwaveId = ((await settled.json()) as { data: { id: number } }).data.id;
  await pollSettlements();
  assert.equal((await pollSettlements()).created, 0, "polled twice, recorded once");
  const withheld = await settlementAt(flutterwaveId);
  // ₦12,000 (fee ₦168, stamp duty ₦50), ₦5,000 (₦70), the other sale ₦2,000 (₦28); the ₦1,000 refund deducted.
  assert.deepEqual(
    [
      withheld.status,
      withheld.destination,
      withheld.grossAmount,
      withheld.feeAmount,
      withheld.refundAmount,
      withheld.adjustmentAmount,
      withheld.netAmount,
    ],
    ["withheld", "wallet", "19000.00", "266.00", "1000.00", "50.00", "17684.00"],
  );
  assert.deepEqual(withheld.reconciliation, { status: "matched", exceptions: 0 });
  assert.deepEqual(
    (withheld.lines as Line[]).map((l) => [l.kind, l.paymentReference, l.netAmount]),
    [
      ["payment", a, "11832.00"],
      ["adjustment", null, "-50.00"],
      ["payment", b, "4930.00"],
      ["external", null, "1972.00"],
      ["refund", b, "-1000.00"],
    ],
  );
  assert.equal((await verify(a)).settlementId, null, "withheld money was not paid");
  const balances = async () => (await call(live.owo, "GET", "/api/v2/balances", { token: live.m.token })).json.data.balances.providers[0];
  assert.deepEqual([(await balances()).unsettled, (await balances()).wallet], ["15762.00", "0.00"], "Flutterwave still holds it");

  await fetch(`${live.double.url}/_double/settlements/${flutterwaveId}`, {
    method: "POST",
    body: JSON.stringify({ flag: null, status: "completed" }),
  });
  assert.equal((await pollSettlements()).moved, 1);
  await pollSettlements();
  const released = await settlementAt(flutterwaveId);
  assert.equal(released.status, "paid");
  assert.equal((await verify(a)).settlementId, released.settlementId);
  assert.deepEqual([(await balances()).unsettled, (await balances()).wallet], ["0.00", "17684.00"], "paid into the Flutterwave wallet");
});

test("a fee the customer paid on top is not the merchant's: Flutterwave's settlement line, which gives only what was charged, reconciles with the credit", async () => {
  const bear = (feeBearer: string) =>
    fetch(`${live.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ feeBearer }) });
  assert.equal((await bear("customer")).status, 200);
  try {
    const ref = await paid("10000.00");
    // Flutterwave charged the customer ₦10,140 (₦140 fee on top): the merchant asked ₦10,000 and pays no fee.
    assert.deepEqual([(await verify(ref)).amountPaid, (await verify(ref)).feeAmount], ["10000.00", "0.00"]);
    const settled = await fetch(`${live.double.url}/_double/settlements`, { method: "POST", body: "{}" });
    const flutterwaveId = ((await settled.json()) as { data: { id: number } }).data.id;
    await pollSettlements();
    const s = await settlementAt(flutterwaveId);
    assert.deepEqual(
      [s.status, s.grossAmount, s.feeAmount, s.adjustmentAmount, s.netAmount],
      ["paid", "10000.00", "0.00", "50.00", "9950.00"],
    );
    assert.deepEqual(s.reconciliation, { status: "matched", exceptions: 0 });
    assert.deepEqual(
      (s.lines as (Line & { grossAmount: string; feeAmount: string })[]).map((l) => [
        l.kind,
        l.paymentReference,
        l.grossAmount,
        l.feeAmount,
        l.netAmount,
      ]),
      [
        ["payment", ref, "10000.00", "0.00", "10000.00"],
        ["adjustment", null, "-50.00", "0.00", "-50.00"],
      ],
    );
    assert.equal((await verify(ref)).settlementId, s.settlementId);
  } finally {
    await bear("merchant");
  }
});

test("Flutterwave settles nothing on test keys", async () => {
  const testMode = await spawnDouble("flutterwave", { "secret-key": "FLWSECK_TEST-settles-nothing-X" });
  try {
    assert.equal((await fetch(`${testMode.url}/_double/settlements`, { method: "POST", body: "{}" })).status, 409);
    const listed = await fetch(`${testMode.url}/v3/settlements`, { headers: { authorization: "Bearer FLWSECK_TEST-settles-nothing-X" } });
    assert.deepEqual(((await listed.json()) as { data: unknown[] }).data, []);
  } finally {
    await testMode.stop();
  }
});
