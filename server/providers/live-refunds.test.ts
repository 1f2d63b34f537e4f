// Live refunds followed at the provider, over real HTTP: Owo, the Paystack and Flutterwave doubles as their own
// processes, and the merchant's callback receiver. Paystack announces a refund by a signed webhook at the notice URL;
// Flutterwave only by its record, so Owo asks (requery). Either way: PROCESSED or FAILED, once, with a signed callback.
import assert from "node:assert/strict";
import { createServer, type AddressInfo } from "node:net";
import { test } from "node:test";
import { Webhook } from "standardwebhooks";
import { call } from "../testing/harness";
import { customerAt, initiateLive, liveShops, type LiveShop } from "../testing/live-merchants";
import { eventually } from "../testing/eventually";
import { ownReference } from "./own-references";
import { paymentWithTimeline } from "../payments/timeline";
import { providerNoticesOf } from "./notice-log";
import { write, db } from "../../db/client";
import { payments, providerAccounts, refunds } from "../../db/schema";
import { and, eq } from "drizzle-orm";

const KEYS = {
  paystack: { secretKey: "sk_test_refunds_paystack" },
  flutterwave: { secretKey: "FLWSECK_TEST-refunds-X", secretHash: "refunds-secret-hash" },
};
// The requery schedule at 1/5: the follower's first ask comes 1 s after the provider accepted a refund, well after the
// Paystack double's webhook (50 ms), so each path is seen on its own. Connected, and the notice URL pasted as the
// webhook URL, as the merchant does on the provider's dashboard.
const live = liveShops(KEYS, {
  name: "refunds shop",
  env: { OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001", OWO_PROVIDER_TIMEOUT_MS: "2000", OWO_REQUERY_BACKOFF_SCALE: "0.2" },
});

/** A live USSD payment of ₦2,500.00 that the double's customer paid in full and Owo settled. */
async function paidLive(m: LiveShop): Promise<string> {
  const p = await initiateLive(live.owo, m, { amount: "2500.00", paymentType: "USSD", bankCode: "058" }, live.receiver);
  const paid = await customerAt(m.double, "pay", ownReference(m.provider, `${p.linkingReference}-1`));
  assert.equal(paid.status, 200, JSON.stringify(paid.json));
  await eventually("the payment settled", async () => (await verify(m, p.paymentReference)).code === "00");
  return p.paymentReference;
}

const verify = async (m: LiveShop, ref: string) =>
  (await call(live.owo, "GET", `/api/v3/payments/query/${ref}`, { token: m.token })).json.data;
const refund = (m: LiveShop, ref: string, body: Record<string, unknown>) =>
  call(live.owo, "POST", `/api/v2/payments/${ref}/refunds`, { token: m.token, body });
const fault = (m: LiveShop, body: Record<string, unknown>) =>
  fetch(`${m.double.url}/_double/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** The payment's refund callbacks, signature checked. */
async function refundCallbacks(m: LiveShop, ref: string, count: number) {
  const hook = new Webhook(m.webhookSecret);
  const got = await eventually(`${count} refund callbacks`, () => {
    const mine = live.receiver.received.filter((r) => r.path === `/cb/${ref}` && r.body.includes('"event":"refund.'));
    return mine.length >= count && mine;
  });
  return got.map((r) => {
    const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
    return (hook.verify(r.body, headers) as { notificationItems: { notificationRequestItem: { data: Record<string, unknown> } }[] })
      .notificationItems[0]!.notificationRequestItem.data;
  });
}

async function refundsOf(m: LiveShop, ref: string) {
  return (await paymentWithTimeline({ merchantId: m.merchantId, mode: "live" }, ref)).refunds;
}

test("Paystack: a part refund is sent to POST /refund, its signed refund.processed webhook settles it, the merchant hears refund.processed", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  const res = await refund(m, ref, { amount: "1000.00", reason: "one item missing", refundReference: "ps-rf-1" });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.data.refund.status, "PENDING");
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.deepEqual(processed?.refund, { refundReference: "ps-rf-1", amount: "1000.00", status: "PROCESSED", reason: "one item missing" });
  assert.equal(processed?.provider, "paystack");
  assert.equal(processed?.amountRefunded, "1000.00");
  const v = await verify(m, ref);
  assert.deepEqual(
    [v.code, v.payments.status, v.payments.amountRefunded, v.payments.amountToRefund],
    ["00", "SUCCESSFUL", "1000.00", "0.00"],
  );
  // The webhook settled it, recorded on the payment: "applied", not "duplicate" (which it would read had the
  // follower's query, a second later at this scale, settled it first). No wall-clock bound: a loaded machine is slow.
  const logged = (await providerNoticesOf(db(), { merchantId: m.merchantId, mode: "live" }, ref)).filter((x) => /^refund /.test(x.reason));
  assert.deepEqual(
    logged.map((x) => x.outcome),
    ["applied"],
    JSON.stringify(logged),
  );
});

test("Paystack: with its refund webhooks dropped, the follower's requery (GET /refund/{id}) settles the refund all the same", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  await fault(m, { kind: "drop-webhook", times: 2 }); // refund.pending and refund.processed
  assert.equal((await refund(m, ref, { reason: "whole order" })).status, 200);
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.equal((processed?.refund as { amount: string }).amount, "2500.00");
  assert.deepEqual(
    (await refundsOf(m, ref)).map((r) => r.status),
    ["PROCESSED"],
  );
});

test("Paystack: a refund the provider fails ends FAILED with refund.failed, and its amount is refundable again", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  await fault(m, { kind: "refund-fails" });
  assert.equal((await refund(m, ref, { amount: "500", reason: "first try" })).status, 200);
  const [failed] = await refundCallbacks(m, ref, 1);
  assert.equal(failed?.event, "refund.failed");
  assert.deepEqual(failed?.refund, {
    refundReference: (await refundsOf(m, ref))[0]?.refundReference,
    amount: "500.00",
    status: "FAILED",
    reason: "first try",
  });
  assert.equal(failed?.amountRefunded, "0.00");
  const again = await refund(m, ref, { reason: "second try" });
  assert.equal(again.json.data.refund.amount, "2500.00", "the failed refund freed its amount");
});

test("Paystack: a 5xx on POST /refund is no verdict: the refund stays PENDING and is sent again until accepted", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  await fault(m, { kind: "5xx", path: "/refund" });
  const res = await refund(m, ref, { amount: "700", reason: "retry me" });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    (await refundsOf(m, ref)).map((r) => r.status),
    ["PENDING"],
  );
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.equal((await verify(m, ref)).payments.amountRefunded, "700.00");
});

test("Flutterwave: no refund webhook; the follower asks GET /v3/refunds/{id} until the refund completes", async () => {
  const m = live.shops.flutterwave;
  const ref = await paidLive(m);
  const res = await refund(m, ref, { amount: "2500.00", reason: "customer changed their mind", refundReference: "flw-rf-1" });
  assert.equal(res.status, 200, res.text);
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.deepEqual(processed?.refund, {
    refundReference: "flw-rf-1",
    amount: "2500.00",
    status: "PROCESSED",
    reason: "customer changed their mind",
  });
  assert.equal(processed?.provider, "flutterwave");
  const more = await refund(m, ref, { amount: "0.01", reason: "more" });
  assert.equal(more.status, 409);
  assert.equal(more.json.data.code, "S15");
});

/** The refunds the double itself holds for the payment's (first) transaction there. */
async function refundsAtDouble(
  m: LiveShop,
  ref: string,
): Promise<{ id: number; amount?: number; amount_refunded?: number; status: string }[]> {
  const p = (await verify(m, ref)).payments as { linkingReference: string };
  return (
    (await (await fetch(`${m.double.url}/_double/transactions/${ownReference(m.provider, `${p.linkingReference}-1`)}`)).json()) as {
      refunds: [];
    }
  ).refunds;
}

for (const lost of ["processed-then-5xx", "processed-then-hang"] as const) {
  test(`Paystack takes the refund but its answer is lost (${lost}), webhooks dropped: Owo finds it in GET /refund instead of sending it again — one refund, PROCESSED`, async () => {
    const m = live.shops.paystack;
    const ref = await paidLive(m);
    await fault(m, { kind: "drop-webhook", times: 2 }); // refund.pending and refund.processed: only the lookup can tell
    await fault(m, { kind: lost, path: "/refund" });
    assert.equal((await refund(m, ref, { amount: "900.00", reason: "answer lost", refundReference: `lost-${ref}` })).status, 200);
    const [processed] = await refundCallbacks(m, ref, 1);
    assert.equal(processed?.event, "refund.processed");
    assert.deepEqual(
      (await refundsOf(m, ref)).map((r) => [r.status, r.amount]),
      [["PROCESSED", "900.00"]],
    );
    assert.deepEqual(
      (await refundsAtDouble(m, ref)).map((r) => r.amount),
      [90000],
      "exactly one refund at Paystack",
    );
    assert.equal((await verify(m, ref)).payments.amountRefunded, "900.00");
  });
}

test("Flutterwave takes the refund but answers 5xx: Owo finds it in GET /v3/refunds instead of sending it again — one refund, PROCESSED", async () => {
  const m = live.shops.flutterwave;
  const ref = await paidLive(m);
  const p = (await verify(m, ref)).payments as { linkingReference: string };
  const { transaction } = (await (
    await fetch(`${m.double.url}/_double/transactions/${ownReference(m.provider, `${p.linkingReference}-1`)}`)
  ).json()) as {
    transaction: { id: number };
  };
  await fault(m, { kind: "processed-then-5xx", path: `/v3/transactions/${transaction.id}/refund` });
  assert.equal((await refund(m, ref, { amount: "1100.00", reason: "answer lost", refundReference: "flw-lost-1" })).status, 200);
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.deepEqual(
    (await refundsOf(m, ref)).map((r) => [r.status, r.amount]),
    [["PROCESSED", "1100.00"]],
  );
  assert.deepEqual(
    (await refundsAtDouble(m, ref)).map((r) => r.amount_refunded),
    [1100],
    "exactly one refund at Flutterwave",
  );
});

test("Owo stopped while sending a refund, nothing of its answer recorded: the follower looks for it at Paystack before sending anything — one refund, PROCESSED", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  const [p] = await db()
    .select()
    .from(payments)
    .where(and(eq(payments.merchantId, m.merchantId), eq(payments.paymentReference, ref)));
  assert.ok(p?.issueReference);
  await fault(m, { kind: "drop-webhook", times: 2 }); // refund.pending and refund.processed: only the lookup can tell
  // What Owo's POST /refund (connector.ts) had taken to Paystack before Owo stopped…
  const reached = await fetch(`${m.double.url}/refund`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEYS.paystack.secretKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      transaction: p.issueReference,
      amount: 40000,
      currency: "NGN",
      customer_note: "stopped mid-send",
      merchant_note: `stopped mid-send (Owo refund stopped-1 for ${p.issueReference})`,
    }),
  });
  assert.equal(reached.status, 200, await reached.text());
  // …and the refund as Owo had reserved it, the outcome of its submission never recorded.
  const now = Date.now();
  await write((tx) =>
    tx.insert(refunds).values({
      id: `rfd_stopped${process.pid}`,
      paymentId: p.id,
      merchantId: m.merchantId,
      mode: "live",
      refundReference: "stopped-1",
      amountKobo: 40000,
      reason: "stopped mid-send",
      status: "PENDING",
      provider: "paystack",
      providerAccountId: m.providerId,
      providerRefundId: null,
      failureReason: null,
      unansweredAt: null,
      checks: 0,
      nextCheckAt: now,
      createdAt: now,
      updatedAt: now,
      settledAt: null,
    }),
  );
  await eventually("found at Paystack and PROCESSED", async () => (await refundsOf(m, ref))[0]?.status === "PROCESSED");
  assert.deepEqual(
    (await refundsAtDouble(m, ref)).map((r) => r.amount),
    [40000],
    "never sent again",
  );
});

test("Paystack's answer lost and its refund list written as its own samples are (no transaction_reference, no merchant_note): no verdict, so the refund is never sent again; once the list names them, it is found and PROCESSED", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  const asSample = (refundsListedAsSample: boolean) =>
    fetch(`${m.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ refundsListedAsSample }) });
  await fault(m, { kind: "drop-webhook", times: 2 });
  await fault(m, { kind: "processed-then-hang", path: "/refund" });
  assert.equal((await asSample(true)).status, 200);
  try {
    assert.equal((await refund(m, ref, { amount: "350.00", reason: "unnamed", refundReference: "unnamed-1" })).status, 200);
    const checks = async () => (await db().select().from(refunds).where(eq(refunds.refundReference, "unnamed-1")))[0]?.checks ?? 0;
    await eventually("looked for twice", async () => (await checks()) >= 2);
    assert.deepEqual(
      (await refundsOf(m, ref)).map((r) => [r.status, r.providerDidNotAnswer]),
      [["PENDING", true]],
    );
    assert.equal((await refundsAtDouble(m, ref)).length, 1, "never sent again");
  } finally {
    await asSample(false);
  }
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.equal((await refundsAtDouble(m, ref)).length, 1);
});

test("a refused connection never reached Paystack: the refund is sent again once the provider is back, and processed once", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  const pointAt = async (baseUrl: string) =>
    write(async (tx) => tx.update(providerAccounts).set({ baseUrl }).where(eq(providerAccounts.id, m.providerId)));
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  await pointAt(`http://127.0.0.1:${port}`);
  try {
    assert.equal((await refund(m, ref, { amount: "300.00", reason: "provider away", refundReference: "refused-1" })).status, 200);
    const [pending] = await refundsOf(m, ref);
    assert.deepEqual([pending?.status, pending?.providerDidNotAnswer], ["PENDING", false], "certainly never reached: not flagged");
  } finally {
    await pointAt(m.double.url);
  }
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.deepEqual(
    (await refundsAtDouble(m, ref)).map((r) => r.amount),
    [30000],
    "sent again, refunded once",
  );
});

test("Paystack's answer lost and its refund list down too: the refund stays PENDING, flagged for the merchant, never sent again nor failed; once Paystack answers, it is found and PROCESSED", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  await fault(m, { kind: "drop-webhook", times: 2 });
  await fault(m, { kind: "processed-then-hang", path: "/refund" });
  assert.equal((await refund(m, ref, { amount: "250.00", reason: "lost and unlisted", refundReference: "unlisted-1" })).status, 200);
  await fault(m, { kind: "5xx", path: "/refund", times: 1000 }); // every lookup (GET /refund) fails from now on
  const checks = async () => (await db().select().from(refunds).where(eq(refunds.refundReference, "unlisted-1")))[0]?.checks ?? 0;
  await eventually("a lookup that got no answer", async () => (await checks()) >= 2);
  const [flagged] = await refundsOf(m, ref);
  assert.deepEqual(
    [flagged?.status, flagged?.providerDidNotAnswer],
    ["PENDING", true],
    "the payment page says: the provider did not answer; check at the provider",
  );
  assert.equal((await refundsAtDouble(m, ref)).length, 1, "never sent again");
  await fetch(`${m.double.url}/_double/faults`, { method: "DELETE" });
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  const [settled] = await refundsOf(m, ref);
  assert.deepEqual([settled?.status, settled?.providerDidNotAnswer], ["PROCESSED", false]);
  assert.deepEqual(
    (await refundsAtDouble(m, ref)).map((r) => r.amount),
    [25000],
    "one refund at Paystack",
  );
});
