// Paystack's own behaviours end to end over real HTTP: Owo, the Paystack double as its own process, the merchant's
// callback receiver. A declined USSD debit has no webhook at Paystack (requery finds it); a transfer of the wrong
// amount is sent back by Paystack itself (never refund due at Owo); a charge Paystack calls ongoing or abandoned
// expires only at Owo's own expiry; a refund is followed at Paystack, whose refund webhook names the payment and the amount but not the refund.
import assert from "node:assert/strict";
import { test } from "node:test";
import { call } from "../../testing/harness";
import { callbackEvents, customerAt, initiateLive, liveSuite } from "../../testing/live-merchants";
import { eventually } from "../../testing/eventually";
import { ownReference } from "../own-references";
import { db } from "../../../db/client";
import { providerNotices, payments, ledgerEntries, ledgerPostings } from "../../../db/schema";
import { paymentWithTimeline } from "../../payments/timeline";

const SECRET_KEY = "sk_test_paystack_journeys";
// Connected, and the notice URL pasted as the webhook URL, as the merchant does on Paystack's dashboard.
const live = liveSuite(
  "paystack",
  { secretKey: SECRET_KEY },
  {
    name: "Paystack shop",
    env: { OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001" },
    flags: { "refund-delay-ms": "100" },
  },
);

async function initiate(patch: Record<string, unknown>) {
  const p = await initiateLive(live.owo, live.m, { amount: "5000.00", ...patch }, live.receiver);
  return { ...p, atPaystack: ownReference("paystack", `${p.linkingReference}-1`) };
}

const verify = async (ref: string) => (await call(live.owo, "GET", `/api/v3/payments/query/${ref}`, { token: live.m.token })).json.data;
const customer = (action: "pay" | "decline" | "expire", reference: string, body: Record<string, unknown> = {}) =>
  customerAt(live.double, action, reference, body);
const callbacks = (ref: string) => callbackEvents(live.receiver, ref);

test("a declined USSD debit: Paystack sends no webhook, the requery loop finds it failed, the merchant hears payment.failed", async () => {
  const p = await initiate({ paymentType: "USSD", bankCode: "232" });
  assert.match(p.payments.ussdDailCode, /^\*822\*33\*4\*\d{6}#$/);
  assert.equal(p.payments.providerreference, p.atPaystack, "providerreference is Paystack's data.reference");
  assert.equal((await customer("decline", p.atPaystack)).status, 200);
  await eventually("the requery loop's payment.failed", () => callbacks(p.paymentReference).includes("payment.failed"), 20_000);
  assert.equal((await verify(p.paymentReference)).payments.status, "FAILED");
});

test("a transfer of the wrong amount is sent back by Paystack itself: the payment stays PENDING with nothing to refund; the exact amount settles it", async () => {
  const p = await initiate({ paymentType: "TRANSFER" });
  assert.deepEqual([p.payments.bankName, p.payments.walletName], ["Test Bank", "TEST-MANAGED-ACCOUNT"]);
  assert.equal((await customer("pay", p.atPaystack, { amount: 300000 })).json.outcome, "reversed");
  const sentBack = await verify(p.paymentReference);
  assert.deepEqual([sentBack.payments.status, sentBack.payments.amountPaid, sentBack.payments.amountToRefund], ["PENDING", "0.00", "0.00"]);
  assert.equal((await customer("pay", p.atPaystack)).json.outcome, "paid");
  const paid = await verify(p.paymentReference);
  assert.deepEqual([paid.payments.status, paid.payments.amountPaid, paid.payments.amountToRefund], ["SUCCESSFUL", "5000.00", "0.00"]);
});

test("a payment Paystack recorded in dollars is never credited as naira: the notice and the requery both refuse it", async () => {
  const p = await initiate({ paymentType: "USSD", bankCode: "058" });
  assert.equal((await customer("pay", p.atPaystack, { currency: "USD" })).json.outcome, "paid");
  const refusals = async () =>
    (await db().select().from(providerNotices)).filter((n) => n.outcome === "rejected" && /currency/.test(n.reason ?? ""));
  await eventually(
    "the requery loop refusing the dollar record",
    async () => (await refusals()).some((n) => n.source === "requery"),
    20_000,
  );
  assert.ok(
    (await refusals()).some((n) => n.source !== "requery"),
    "the notice was refused too",
  );
  const after = await verify(p.paymentReference);
  assert.deepEqual([after.payments.status, after.payments.amountPaid], ["PENDING", "0.00"]);
});

test("fees: the merchant bearing Paystack's fee is credited the amount and records the fee; a customer bearing it is credited the amount asked", async () => {
  const integration = (customerBearsFees: boolean) =>
    fetch(`${live.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ customerBearsFees }) });
  const merchantBears = await initiate({ paymentType: "TRANSFER" });
  await integration(true);
  const customerBears = await initiate({ paymentType: "TRANSFER" });
  await integration(false);
  // ₦5,000.00 at Paystack's 1.5% + ₦100: ₦175.00; the customer bearing it sends ₦5,175.00 into the account.
  assert.equal((await customer("pay", merchantBears.atPaystack)).json.outcome, "paid");
  assert.equal((await customer("pay", customerBears.atPaystack, { amount: 517500 })).json.outcome, "paid");
  const seen = async (ref: string) => {
    const p = (await verify(ref)).payments;
    return [p.status, p.amountPaid, p.amountToRefund, p.feeAmount];
  };
  await eventually("both credited", async () => (await seen(customerBears.paymentReference))[0] === "SUCCESSFUL");
  assert.deepEqual(await seen(merchantBears.paymentReference), ["SUCCESSFUL", "5000.00", "0.00", "175.00"]);
  assert.deepEqual(await seen(customerBears.paymentReference), ["SUCCESSFUL", "5000.00", "0.00", "0.00"]);
});

test("ongoing and abandoned at Paystack are not paid yet: PENDING through requeries, EXPIRED only at Owo's own expiry", async () => {
  const abandoned = await initiate({ paymentType: "USSD", bankCode: "058" });
  const ongoing = await initiate({ paymentType: "USSD", bankCode: "058" });
  await customer("expire", abandoned.atPaystack);
  const shown = await fetch(`${live.double.url}/_double/transactions/${ongoing.atPaystack}/status`, {
    method: "POST",
    body: JSON.stringify({ status: "ongoing" }),
  });
  assert.equal(shown.status, 200);
  const refs = [abandoned.paymentReference, ongoing.paymentReference];
  const rows = async () => (await db().select().from(payments)).filter((r) => refs.includes(r.paymentReference));
  await eventually("both asked at Paystack more than once", async () => (await rows()).every((r) => r.requeryCount >= 2), 20_000);
  for (const ref of refs) assert.equal((await verify(ref)).payments.status, "PENDING", ref);
  const clock = globalThis as unknown as { __owoClockOffsetMs?: number };
  clock.__owoClockOffsetMs = 11 * 60_000; // past the USSD lifetime of 10 minutes
  try {
    for (const ref of refs)
      await eventually(`${ref}: payment.expired at Owo's expiry`, () => callbacks(ref).includes("payment.expired"), 20_000);
  } finally {
    clock.__owoClockOffsetMs = 0;
  }
  for (const ref of refs) assert.equal((await verify(ref)).payments.status, "EXPIRED", ref);
});

test("a refund is sent to Paystack in kobo and followed there until processed: PROCESSED, refund.processed", async () => {
  const p = await initiate({ paymentType: "USSD", bankCode: "058" });
  await customer("pay", p.atPaystack);
  assert.equal((await verify(p.paymentReference)).payments.status, "SUCCESSFUL");
  const res = await call(live.owo, "POST", `/api/v2/payments/${p.paymentReference}/refunds`, {
    token: live.m.token,
    body: { amount: "1200.50", reason: "out of stock", refundReference: `RFD-${p.paymentReference}` },
  });
  assert.equal(res.status, 200, res.text);
  const atPaystack = (await (await fetch(`${live.double.url}/_double/transactions/${p.atPaystack}`)).json()) as {
    refunds: { amount: number; status: string }[];
  };
  assert.deepEqual(
    atPaystack.refunds.map((r) => r.amount),
    [120050],
    "sent as integer kobo",
  );
  await eventually("refund PROCESSED", async () => (await verify(p.paymentReference)).payments.amountRefunded === "1200.50");
  await eventually("refund.processed callback", () => callbacks(p.paymentReference).includes("refund.processed"));
});

test("a refund Paystack holds at processing (refund.processing: the bank is still on it) stays PENDING, nothing booked; processed, it is PROCESSED", async () => {
  const p = await initiate({ paymentType: "USSD", bankCode: "058" });
  await customer("pay", p.atPaystack);
  await fetch(`${live.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ refundsProcessing: 1 }) });
  const base = `/api/v2/payments/${p.paymentReference}/refunds`;
  const res = await call(live.owo, "POST", base, {
    token: live.m.token,
    body: { amount: "2000.00", reason: "damaged", refundReference: `proc-${p.paymentReference}` },
  });
  assert.equal(res.status, 200, res.text);
  const atPaystack = async () =>
    (
      (await (await fetch(`${live.double.url}/_double/transactions/${p.atPaystack}`)).json()) as {
        refunds: { id: number; status: string }[];
      }
    ).refunds;
  await eventually("processing at Paystack", async () => (await atPaystack())[0]?.status === "processing");
  const sent = async () =>
    ((await (await fetch(`${live.double.url}/_double/webhooks`)).json()) as { webhooks: { event: string; answer: number | string }[] })
      .webhooks;
  await eventually("refund.processing taken by Owo", async () =>
    (await sent()).some((w) => w.event === "refund.processing" && w.answer === 200),
  );
  const status = async () =>
    (await call(live.owo, "GET", `${base}/proc-${p.paymentReference}`, { token: live.m.token })).json.data.refund.status;
  assert.equal(await status(), "PENDING");
  assert.equal((await verify(p.paymentReference)).payments.amountRefunded, "0.00");
  assert.ok(!callbacks(p.paymentReference).some((e) => e === "refund.processed" || e === "refund.failed"));

  const id = (await atPaystack())[0]?.id;
  const settled = await fetch(`${live.double.url}/_double/refunds/${id}/status`, {
    method: "POST",
    body: JSON.stringify({ status: "processed" }),
  });
  assert.equal(settled.status, 200);
  await eventually("PROCESSED", async () => (await status()) === "PROCESSED");
  assert.equal((await verify(p.paymentReference)).payments.amountRefunded, "2000.00");
  await eventually("refund.processed callback", () => callbacks(p.paymentReference).includes("refund.processed"));
});

test("a refund Paystack marks needs-attention: NEEDS_ATTENTION and still counted; the customer's account is checked, retried at Paystack by its bank id, and the refund ends PROCESSED on the books; another is given up and frees its amount", async () => {
  const p = await initiate({ paymentType: "USSD", bankCode: "058" });
  await customer("pay", p.atPaystack);
  await fetch(`${live.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ refundsNeedingAttention: 2 }) });
  const base = `/api/v2/payments/${p.paymentReference}/refunds`;
  const post = (path: string, body?: unknown) =>
    call(live.owo, "POST", path, { token: live.m.token, ...(body === undefined ? {} : { body }) });
  const status = async (ref: string) => (await call(live.owo, "GET", `${base}/${ref}`, { token: live.m.token })).json.data.refund.status;
  for (const [ref, amount] of [
    ["na-1", "2000.00"],
    ["na-2", "1000.00"],
  ])
    assert.equal((await post(base, { amount, reason: "a USSD payment has no card to return to", refundReference: ref })).status, 200);
  await eventually(
    "both refunds need attention",
    async () => (await status("na-1")) === "NEEDS_ATTENTION" && (await status("na-2")) === "NEEDS_ATTENTION",
  );
  await eventually(
    "refund.needs_attention twice",
    () => callbacks(p.paymentReference).filter((e) => e === "refund.needs_attention").length === 2,
  );
  // Both still count against what is refundable: ₦5,000.00 − ₦3,000.00.
  assert.equal(
    (await paymentWithTimeline({ merchantId: live.m.merchantId, mode: "live" }, p.paymentReference)).state.refundable,
    "2000.00",
  );
  const tooMuch = await post(base, { amount: "2000.01", reason: "more than is left" });
  assert.deepEqual([tooMuch.status, tooMuch.json.data.code], [409, "S15"]);

  const badCheckDigit = await post(`${base}/na-1/account`, { bankCode: "058", accountNumber: "0123456789" });
  assert.deepEqual([badCheckDigit.status, badCheckDigit.json.data.errors[0].field], [400, "accountNumber"]);
  const notListed = await post(`${base}/na-1/account`, { bankCode: "070", accountNumber: "0123456785" });
  assert.deepEqual([notListed.status, notListed.json.data.errors[0].field], [400, "bankCode"]);
  const given = await post(`${base}/na-1/account`, { bankCode: "058", accountNumber: "0123456785" });
  assert.equal(given.status, 200, given.text);
  assert.deepEqual([given.json.data.refund.refundReference, given.json.data.refund.status], ["na-1", "PENDING"]);
  const atPaystack = (await (await fetch(`${live.double.url}/_double/transactions/${p.atPaystack}`)).json()) as {
    refunds: { amount: number; retriedTo: { accountNumber: string; bankId: number } | null }[];
  };
  // GTBank is id 9 in Paystack's List Banks (its RefundRetry example); the double held the body to Paystack's OpenAPI.
  assert.deepEqual(
    atPaystack.refunds.map((r) => [r.amount, r.retriedTo]),
    [
      [200000, { accountNumber: "0123456785", bankId: 9 }],
      [100000, null],
    ],
  );
  await eventually("na-1 PROCESSED", async () => (await status("na-1")) === "PROCESSED");
  await eventually("refund.processed", () => callbacks(p.paymentReference).includes("refund.processed"));
  assert.equal((await verify(p.paymentReference)).payments.amountRefunded, "2000.00");
  const booked = (await db().select().from(ledgerEntries)).filter((e) => e.refundReference === "na-1");
  assert.deepEqual(
    booked.map((e) => e.kind),
    ["refund"],
  );

  const again = await post(`${base}/na-1/account`, { bankCode: "058", accountNumber: "0123456785" });
  assert.deepEqual([again.status, again.json.data.code], [409, "S15"]);
  const givenUp = await post(`${base}/na-2/cancel`);
  assert.equal(givenUp.status, 200, givenUp.text);
  assert.equal(givenUp.json.data.refund.status, "FAILED");
  await eventually("refund.failed", () => callbacks(p.paymentReference).includes("refund.failed"));
  assert.equal(
    (await paymentWithTimeline({ merchantId: live.m.merchantId, mode: "live" }, p.paymentReference)).state.refundable,
    "3000.00",
  );
  assert.deepEqual([(await post(`${base}/na-2/cancel`)).status, (await post(`${base}/na-1/cancel`)).status], [409, 409]);
});

test("a dispute Paystack resolves against the merchant (reversed): booked once as a chargeback adjustment against Paystack; the payment stays SUCCESSFUL", async () => {
  const p = await initiate({ paymentType: "USSD", bankCode: "058" });
  await customer("pay", p.atPaystack);
  // Credited first: a charge.success still being confirmed (its delivery timed out under load) would otherwise ask
  // Paystack after the chargeback and find the transaction already reversed.
  await eventually("the payment credited", async () => (await verify(p.paymentReference)).payments.status === "SUCCESSFUL");
  const taken = await fetch(`${live.double.url}/_double/transactions/${p.atPaystack}/chargeback`, {
    method: "POST",
    body: JSON.stringify({ amount: 300000 }),
  });
  assert.equal(taken.status, 200, await taken.text());
  await fetch(`${live.double.url}/_double/webhooks`);
  const chargebacks = async () =>
    (await db().select().from(ledgerEntries)).filter((e) => e.paymentReference === p.paymentReference && e.kind === "adjustment");
  await eventually("the chargeback booked", async () => (await chargebacks()).length === 1);
  // The webhook again (Paystack retries until answered): still one.
  const replayed = await fetch(`${live.double.url}/_double/webhooks/replay`, { method: "POST" });
  assert.equal(replayed.status, 200);
  await fetch(`${live.double.url}/_double/webhooks`);
  const [entry] = await chargebacks();
  assert.equal(entry?.reason, "chargeback");
  const postings = (await db().select().from(ledgerPostings)).filter((x) => x.entryId === entry?.id).sort((a, b) => a.line - b.line);
  assert.deepEqual(
    postings.map((x) => [x.account.replace(/prv_\w+/, "prv"), x.amountKobo]),
    [
      ["adjustments", 300000],
      ["provider:prv", -300000],
    ],
  );
  const v = (await verify(p.paymentReference)).payments;
  assert.deepEqual([v.status, v.amountPaid, v.amountRefunded], ["SUCCESSFUL", "5000.00", "0.00"]);
  assert.equal((await chargebacks()).length, 1);
});
