// Notices for the merchant's other sales (API.md "Live mode" → Modes): a provider takes one webhook URL per account
// and Owo holds it, so a valid notice for a transaction without Owo's prefix goes on to the forwarding URL the
// merchant set — the body byte for byte and the provider's own headers — retried like a callback, and listed on the
// account. Owo's own transactions, and Owo-prefixed references that match no payment, are not forwarded.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { eventually } from "../testing/eventually";
import { initiateLive } from "../testing/live-merchants";
import { spawnDouble, type DoubleProcess } from "../testing/processes";
import { startReceiver, type Receiver } from "../testing/receiver";
import { userClient } from "../testing/sessions";
import { ownReference } from "./own-references";
import { paystackSignature } from "./paystack/signature";
import { connectProvider } from "./accounts";
import { createLiveKeys } from "../auth/api-keys";

const PAYSTACK_KEY = "sk_test_forwarding_shop";
const FLW = { secretKey: "FLWSECK_TEST-forwarding-X", secretHash: "forwarding-secret-hash" };

let owo: Owo;
let paystack: DoubleProcess;
let flutterwave: DoubleProcess;
/** The merchant's own website: its first answer to each path is 503, then 200. */
let site: Receiver;
let shop: { merchantId: string; userId: string; token: string; publicKey: string; paystackId: string; flutterwaveId: string };

before(async () => {
  [owo, paystack, flutterwave] = await Promise.all([
    startOwo({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001", OWO_REQUERY_BACKOFF_SCALE: "1000" }),
    spawnDouble("paystack", { "secret-key": PAYSTACK_KEY }),
    spawnDouble("flutterwave", { "secret-key": FLW.secretKey, "secret-hash": FLW.secretHash }),
  ]);
  const seen = new Set<string>();
  site = await startReceiver((r) => {
    if (seen.has(r.path)) return 200;
    seen.add(r.path);
    return 503;
  });
  const m = await createTestMerchant("Forwarding Stores");
  const ps = await connectProvider(m.merchantId, { provider: "paystack", credentials: { secretKey: PAYSTACK_KEY }, baseUrl: paystack.url });
  const fw = await connectProvider(m.merchantId, { provider: "flutterwave", credentials: FLW, baseUrl: flutterwave.url, priority: 5 });
  for (const [double, url] of [
    [paystack, ps.noticeUrl],
    [flutterwave, fw.noticeUrl],
  ] as const)
    await fetch(`${double.url}/_double/webhook-url`, { method: "PUT", body: JSON.stringify({ url }) });
  const keys = await createLiveKeys(m.merchantId);
  shop = {
    merchantId: m.merchantId,
    userId: m.userId,
    publicKey: keys.publicKey,
    token: await tokenFor(owo, keys),
    paystackId: ps.providerId,
    flutterwaveId: fw.providerId,
  };
  // The merchant sets each account's forwarding URL through the dashboard's tRPC door.
  const dashboard = await userClient(owo, m.userId);
  await dashboard.providers.setForwardUrl.mutate({ providerId: ps.providerId, forwardUrl: site.url("/paystack/webhook") });
  await dashboard.providers.setForwardUrl.mutate({ providerId: fw.providerId, forwardUrl: site.url("/flutterwave/webhook") });
});
after(async () => {
  await Promise.all([paystack.stop(), flutterwave.stop()]);
  await site.stop();
  await owo.stop();
});

type Sent = { event: string; body: string; headers: Record<string, string>; answer: number | string };
async function webhooksOf(double: DoubleProcess): Promise<Sent[]> {
  return ((await (await fetch(`${double.url}/_double/webhooks`)).json()) as { webhooks: Sent[] }).webhooks;
}

const forwardsOf = async (providerId: string) =>
  (await (await userClient(owo, shop.userId)).providers.forwards.query({ providerId })).forwards;

test("Paystack: the merchant's own sale's charge.success reaches its site unchanged (body and signature), after a 503 retried like a callback", async () => {
  const reference = `shop-order-${process.pid}`;
  const charged = await fetch(`${paystack.url}/charge`, {
    method: "POST",
    headers: { authorization: `Bearer ${PAYSTACK_KEY}` },
    body: JSON.stringify({ email: "walkin@example.com", amount: 750000, reference, bank_transfer: {} }),
  });
  assert.equal(charged.status, 200, await charged.text());
  await fetch(`${paystack.url}/_double/transactions/${reference}/pay`, { method: "POST", body: "{}" });

  const sent = (await webhooksOf(paystack)).find((w) => w.event === "charge.success" && w.body.includes(reference));
  assert.ok(sent, "Paystack sent its charge.success");
  assert.equal(sent.answer, 200, "Owo answered Paystack 200 (else Paystack retries)");
  const atSite = await eventually(
    "the forward delivered",
    () =>
      site.received.filter((r) => r.path === "/paystack/webhook").length >= 2 &&
      site.received.filter((r) => r.path === "/paystack/webhook"),
    20_000,
  );
  for (const r of atSite) {
    assert.equal(r.body, sent.body, "byte for byte");
    assert.equal(r.headers["x-paystack-signature"], sent.headers["x-paystack-signature"]);
    assert.equal(r.headers["x-paystack-signature"], paystackSignature(r.body, PAYSTACK_KEY), "still verifies at the merchant's site");
    assert.equal(r.headers["content-type"], sent.headers["content-type"] ?? "application/json");
    assert.equal(r.headers["webhook-signature"], undefined, "not signed as an Owo callback");
  }
  const [forward] = await eventually("the forward recorded delivered", async () => {
    const list = await forwardsOf(shop.paystackId);
    return list[0]?.status === "delivered" && list;
  });
  assert.deepEqual(
    [forward?.reference, forward?.status, forward?.attemptCount, forward?.lastStatusCode, forward?.url],
    [reference, "delivered", 2, 200, site.url("/paystack/webhook")],
  );
});

test("Paystack: Owo's own payment is not forwarded, and a notice under Owo's prefix for no payment is answered 200 and kept", async () => {
  const paymentReference = `fwd-own-${process.pid}`;
  const p = await initiateLive(owo, shop, { amount: "2500.00", paymentReference, paymentType: "TRANSFER" }, site);
  const atPaystack = ownReference("paystack", `${p.linkingReference}-1`);
  assert.match(atPaystack, /^owo-OWO\d{17}-1$/);
  await fetch(`${paystack.url}/_double/transactions/${atPaystack}/pay`, { method: "POST", body: "{}" });
  await eventually("Owo's payment credited", async () => {
    const v = await call(owo, "GET", `/api/v3/payments/query/${paymentReference}`, { token: shop.token });
    return v.json.data.payments.status === "SUCCESSFUL";
  });

  const stray = JSON.stringify({
    event: "charge.success",
    data: { id: 9900001, reference: "owo-OWO99999999999999999-1", amount: 100000, currency: "NGN", status: "success" },
  });
  const answered = await fetch(`${owo.url}/api/v2/providers/${shop.paystackId}/notices`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-paystack-signature": paystackSignature(stray, PAYSTACK_KEY) },
    body: stray,
  });
  assert.equal(answered.status, 200);
  assert.match(((await answered.json()) as { data: { message: string } }).data.message, /No payment for this notice; recorded/);

  const forwarded = (await forwardsOf(shop.paystackId)).map((f) => f.reference);
  assert.ok(!forwarded.includes(atPaystack), "Owo's own transaction stays Owo's");
  assert.ok(!forwarded.includes("owo-OWO99999999999999999-1"), "an Owo reference for no payment is recorded, not forwarded");
  assert.ok(!site.received.some((r) => r.path === "/paystack/webhook" && r.body.includes(atPaystack)));
});

test("Flutterwave: the merchant's own charge.completed is forwarded with Flutterwave's verif-hash; another merchant cannot list these forwards", async () => {
  const txRef = `MC-${process.pid}-1`;
  const opened = await fetch(`${flutterwave.url}/v3/charges?type=bank_transfer`, {
    method: "POST",
    headers: { authorization: `Bearer ${FLW.secretKey}`, "content-type": "application/json" },
    body: JSON.stringify({ tx_ref: txRef, amount: "1500", currency: "NGN", email: "walkin@example.com" }),
  });
  assert.equal(opened.status, 200, await opened.text());
  await fetch(`${flutterwave.url}/_double/transactions/${txRef}/pay`, { method: "POST", body: "{}" });
  const sent = await eventually("Flutterwave's charge.completed", async () =>
    (await webhooksOf(flutterwave)).find((w) => w.event === "charge.completed" && w.body.includes(txRef)),
  );
  const [delivered] = await eventually("the forward delivered", () => {
    const got = site.received.filter((r) => r.path === "/flutterwave/webhook");
    return got.length >= 2 && got.slice(1);
  });
  assert.equal(delivered?.body, sent.body);
  assert.equal(delivered?.headers["verif-hash"], FLW.secretHash);
  assert.equal((await forwardsOf(shop.flutterwaveId))[0]?.reference, txRef);

  const other = await createTestMerchant("Nosy Stores");
  await assert.rejects(
    (await userClient(owo, other.userId)).providers.forwards.query({ providerId: shop.flutterwaveId }),
    /No such provider account/,
  );
});

test("the forwarding URL follows the callback rules: an absolute http(s) URL, or none", async () => {
  const dashboard = await userClient(owo, shop.userId);
  await assert.rejects(
    dashboard.providers.setForwardUrl.mutate({ providerId: shop.paystackId, forwardUrl: "ftp://shop.example.ng/hook" }),
    /forwardUrl/,
  );
  await dashboard.providers.setForwardUrl.mutate({ providerId: shop.flutterwaveId, forwardUrl: null });
  const { providers } = await dashboard.providers.list.query();
  assert.deepEqual(
    providers.map((p) => [p.provider, p.forwardUrl]),
    [
      ["paystack", site.url("/paystack/webhook")],
      ["flutterwave", null],
    ],
  );
});

test("Paystack: a signed event about no transaction (subscription.create) is the merchant's too, and forwarded", async () => {
  const body = JSON.stringify({
    event: "subscription.create",
    data: { id: 77120, subscription_code: "SUB_vsyqdmlzble3uii", status: "active" },
  });
  const answered = await fetch(`${owo.url}/api/v2/providers/${shop.paystackId}/notices`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-paystack-signature": paystackSignature(body, PAYSTACK_KEY) },
    body,
  });
  assert.equal(answered.status, 200);
  await eventually("forwarded", () => site.received.some((r) => r.path === "/paystack/webhook" && r.body === body));
  const forward = (await forwardsOf(shop.paystackId)).find((f) => f.eventId === "subscription.create:77120");
  assert.equal(forward?.reference, null);
});

test("SeerBit: the merchant's own transaction notice is acknowledged to SeerBit at once and forwarded with SeerBit's headers", async () => {
  // Nothing is asked of SeerBit for another's transaction, so the account's API address is never called.
  const { providerId, noticeUrl } = await connectProvider(shop.merchantId, {
    provider: "seerbit",
    credentials: { publicKey: "SBTESTPUBK_forwarding", secretKey: "SBTESTSECK_forwarding" },
    baseUrl: "http://127.0.0.1:9",
  });
  await (await userClient(owo, shop.userId)).providers.setForwardUrl.mutate({ providerId, forwardUrl: site.url("/seerbit/webhook") });
  const body = JSON.stringify({
    notificationItems: [
      {
        notificationRequestItem: {
          eventType: "transaction",
          eventId: "a1b2c3d4e5f6",
          data: { reference: "SHOP-ORDER-88", amount: 1015.5, code: "00", currency: "NGN" },
        },
      },
    ],
  });
  const answered = await fetch(noticeUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "x-expected-ack-reference": "ack-88" },
    body,
  });
  assert.equal(answered.status, 200);
  assert.deepEqual(await answered.json(), { ackReference: "ack-88", status: "received" });
  const [first] = await eventually("forwarded", () => {
    const got = site.received.filter((r) => r.path === "/seerbit/webhook");
    return got.length > 0 && got;
  });
  assert.equal(first?.body, body);
  assert.equal(first?.headers["x-expected-ack-reference"], "ack-88");
});
