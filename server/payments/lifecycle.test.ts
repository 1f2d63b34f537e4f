// Every move of API.md's Lifecycle, driven only through the sandbox bank over HTTP and read back through verify.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { write } from "../../db/client";
import { issueKeyPair } from "../auth/api-keys";
import { initiated, sampleCustomers, sampleOrder, transferBody, ussdBody } from "../testing/initiation";

let owo: Owo;
let token: string;
let publicKey: string;

before(async () => {
  owo = await startOwo();
  const m = await createTestMerchant("Lifecycle Store");
  publicKey = m.publicKey;
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

async function initiate(paymentType: "USSD" | "TRANSFER", amount = "1500.00"): Promise<string> {
  const body = paymentType === "USSD" ? ussdBody(publicKey, { amount, bankCode: "058" }) : transferBody(publicKey, { amount });
  await initiated(owo, token, body);
  return String(body.paymentReference);
}

const simulate = (ref: string, body: unknown) => call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token, body });

async function verify(ref: string) {
  const res = await call(owo, "GET", `/api/v3/payments/query/${ref}`, { token });
  assert.equal(res.status, 200, res.text);
  return res.json.data;
}

test("USSD pay → SUCCESSFUL (00) with amountPaid and paidAt", async () => {
  const ref = await initiate("USSD");
  const sim = await simulate(ref, { outcome: "pay" });
  assert.equal(sim.status, 200, sim.text);
  assert.equal(sim.json.data.payments.status, "SUCCESSFUL");
  assert.deepEqual([sim.json.data.code, sim.json.data.message], ["00", "Successful"]);
  const v = await verify(ref);
  assert.equal(v.code, "00");
  assert.equal(v.message, "Successful");
  assert.equal(v.payments.status, "SUCCESSFUL");
  assert.equal(v.payments.amountPaid, "1500.00");
  assert.equal(v.payments.amountToRefund, "0.00");
  assert.equal(v.payments.gatewayMessage, "Successful");
  assert.ok(Date.parse(v.payments.paidAt) > 0);
  assert.deepEqual(v.customers, sampleCustomers);
  // The bytes follow API.md's example: its fields in its order, feeAmount and settlementId after provider.
  assert.deepEqual(Object.keys(v.payments), [
    ...["paymentReference", "linkingReference", "paymentType", "status", "amount", "amountPaid", "amountToRefund"],
    ...["amountRefunded", "currency", "country", "mode", "gatewayMessage", "gatewayCode", "provider", "feeAmount"],
    ...["settlementId", "createdAt", "paidAt", "expiresAt", "updatedAt"],
  ]);
  // Also answered under /api/v2/
  const v2 = await call(owo, "GET", `/api/v2/payments/query/${ref}`, { token });
  assert.equal(v2.json.data.payments.status, "SUCCESSFUL");
});

test("a fresh payment verifies PENDING (S20) with nothing paid and no paidAt", async () => {
  const ref = await initiate("TRANSFER");
  const v = await verify(ref);
  assert.equal(v.code, "S20");
  assert.equal(v.message, "Transaction is pending");
  assert.equal(v.payments.amountPaid, "0.00");
  assert.equal(v.payments.paidAt, null);
  assert.equal(v.payments.mode, "test");
  assert.equal(v.payments.paymentType, "TRANSFER");
});

test("USSD decline → FAILED (S12); money after it is refund due and moves nothing", async () => {
  const ref = await initiate("USSD", "2500");
  assert.equal((await simulate(ref, { outcome: "decline" })).json.data.payments.status, "FAILED");
  let v = await verify(ref);
  assert.equal(v.code, "S12");
  assert.equal(v.message, "Transaction Failed");
  await simulate(ref, { outcome: "pay" });
  v = await verify(ref);
  assert.equal(v.payments.status, "FAILED");
  assert.equal(v.payments.amountPaid, "0.00");
  assert.equal(v.payments.amountToRefund, "2500.00");
  assert.equal(v.payments.paidAt, null);
  // A second decline for a closed payment changes nothing.
  await simulate(ref, { outcome: "decline" });
  assert.equal((await verify(ref)).payments.amountToRefund, "2500.00");
});

test("TRANSFER under-pay → PARTIALLY_PAID, then the balance → SUCCESSFUL", async () => {
  const ref = await initiate("TRANSFER", "1500");
  const part = await simulate(ref, { outcome: "pay", amount: "700.00" });
  assert.equal(part.json.data.payments.status, "PARTIALLY_PAID");
  let v = await verify(ref);
  assert.equal(v.code, "S20");
  assert.equal(v.message, "Partially paid; awaiting the balance");
  // The simulate answer carries verify's code and message, not a blanket "00" Successful.
  assert.deepEqual([part.json.data.code, part.json.data.message], [v.code, v.message]);
  assert.equal(v.payments.amountPaid, "700.00");
  assert.equal(v.payments.paidAt, null);
  await simulate(ref, { outcome: "pay" }); // the balance still owed: 800.00
  v = await verify(ref);
  assert.equal(v.payments.status, "SUCCESSFUL");
  assert.equal(v.payments.amountPaid, "1500.00");
});

test("TRANSFER over-pay → SUCCESSFUL with amountPaid above amount", async () => {
  const ref = await initiate("TRANSFER", "1500");
  await simulate(ref, { outcome: "pay", amount: "2000.50" });
  const v = await verify(ref);
  assert.equal(v.payments.status, "SUCCESSFUL");
  assert.equal(v.payments.amountPaid, "2000.50");
  assert.equal(v.payments.amountToRefund, "0.00");
});

test("pay after success is refund due; status and amountPaid stay", async () => {
  const ref = await initiate("TRANSFER", "1000");
  await simulate(ref, { outcome: "pay" });
  await simulate(ref, { outcome: "pay", amount: "250.25" });
  await simulate(ref, { outcome: "pay" });
  const v = await verify(ref);
  assert.equal(v.payments.status, "SUCCESSFUL");
  assert.equal(v.payments.amountPaid, "1000.00");
  assert.equal(v.payments.amountToRefund, "1250.25");
});

test("simulate refuses combinations outside API.md's table with 400 S5", async () => {
  const ussd = await initiate("USSD");
  const transfer = await initiate("TRANSFER");
  for (const [ref, body, field] of [
    [ussd, { outcome: "pay", amount: "700.00" }, "amount"],
    [transfer, { outcome: "decline" }, "outcome"],
    [transfer, { outcome: "refund" }, "outcome"],
    [transfer, { outcome: "pay", amount: "7e2" }, "amount"],
    [transfer, { outcome: "pay", amount: "0" }, "amount"],
    [transfer, {}, "outcome"],
    [transfer, { outcome: "pay", extra: true }, "extra"],
  ] as const) {
    const res = await simulate(ref, body);
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.json.data.code, "S5");
    assert.ok(
      res.json.data.errors.some((e: { field: string }) => e.field === field),
      res.text,
    );
  }
  const arr = await call(owo, "POST", `/api/v2/sandbox/payments/${transfer}/simulate`, { token, raw: "[]" });
  assert.equal(arr.json.data.code, "S5");
  assert.equal((await verify(transfer)).payments.status, "PENDING", "nothing moved");
});

test("an unknown or another merchant's reference is 404 S404 for simulate and verify", async () => {
  const ref = await initiate("TRANSFER");
  const other = await createTestMerchant("Other Store");
  const otherToken = await tokenFor(owo, other);
  for (const res of [
    await call(owo, "GET", `/api/v3/payments/query/${ref}`, { token: otherToken }),
    await call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token: otherToken, body: { outcome: "pay" } }),
    await call(owo, "GET", `/api/v3/payments/query/no-such-ref`, { token }),
    await call(owo, "GET", `/api/v3/payments/query/%E0%A4%A`, { token }),
  ]) {
    assert.equal(res.status, 404, res.text);
    assert.equal(res.json.data.code, "S404");
    assert.ok(!res.text.includes(sampleOrder.fullName));
  }
  assert.equal((await verify(ref)).payments.status, "PENDING");
});

test("a live key gets 403 S3 from the sandbox before any lookup", async () => {
  const m = await createTestMerchant("Live Store");
  const live = await write(async (tx) => issueKeyPair(tx, m.merchantId, "live"));
  const liveToken = await tokenFor(owo, live);
  const res = await call(owo, "POST", "/api/v2/sandbox/payments/whatever/simulate", { token: liveToken, body: { outcome: "pay" } });
  assert.equal(res.status, 403, res.text);
  assert.equal(res.json.data.code, "S3");
});
