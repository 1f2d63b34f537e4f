// Live routing over real HTTP, against the Paystack and Flutterwave doubles as their own processes: a live key with
// no provider is S3, a bank no provider serves is S8, a provider down (5xx, hang, refused connection) hands the
// payment to the next, all down is S502 with nothing stored, and a provider that keeps failing rests.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { transferBody } from "../testing/initiation";
import { spawnDouble, type DoubleProcess } from "../testing/processes";
import { connectProvider, disconnectProvider } from "./accounts";
import { createLiveKeys } from "../auth/api-keys";
import { providerHealth } from "./health";
import { PROVIDERS_DOWN_FOR_CUSTOMERS } from "../payments/customer-answers";
import { createLink } from "../links/links";
import { createLinkInput } from "../links/link-schema";
import { payByLink } from "../links/pay";

const PAYSTACK_KEY = "sk_test_routing_paystack";
const FLW_KEY = "FLWSECK_TEST-routing-X";
const FLW_HASH = "routing-secret-hash";
let owo: Owo;
let paystack: DoubleProcess;
let flutterwave: DoubleProcess;

before(async () => {
  owo = await startOwo({ OWO_PROVIDER_TIMEOUT_MS: "3000", OWO_PROVIDER_REST_SECONDS: "60" });
  [paystack, flutterwave] = await Promise.all([
    spawnDouble("paystack", { "secret-key": PAYSTACK_KEY }),
    spawnDouble("flutterwave", { "secret-key": FLW_KEY, "secret-hash": FLW_HASH }),
  ]);
});
after(async () => {
  await Promise.all([paystack.stop(), flutterwave.stop()]);
  await owo.stop();
});

type Connect = { provider: "paystack" | "flutterwave"; priority: number; baseUrl?: string };

/** A merchant with live keys and these providers connected, as `provider add` and `keys create --mode live` make them. */
async function liveMerchant(providers: Connect[]) {
  const m = await createTestMerchant();
  const ids: Record<string, string> = {};
  for (const p of providers) {
    const credentials = p.provider === "paystack" ? { secretKey: PAYSTACK_KEY } : { secretKey: FLW_KEY, secretHash: FLW_HASH };
    const baseUrl = p.baseUrl ?? (p.provider === "paystack" ? paystack.url : flutterwave.url);
    ids[`${p.provider}:${p.priority}`] = (
      await connectProvider(m.merchantId, { provider: p.provider, credentials, priority: p.priority, baseUrl })
    ).providerId;
  }
  const keys = await createLiveKeys(m.merchantId);
  return { merchantId: m.merchantId, publicKey: keys.publicKey, token: await tokenFor(owo, keys), ids };
}

const body = (publicKey: string, patch: Record<string, unknown> = {}) => transferBody(publicKey, { amount: "1500.00", ...patch });

async function fault(double: DoubleProcess, kind: string, times = 1) {
  const res = await fetch(`${double.url}/_double/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind, times }),
  });
  assert.equal(res.status, 200);
}
const clearFaults = (double: DoubleProcess) => fetch(`${double.url}/_double/faults`, { method: "DELETE" });

/** A port nothing listens on: connections to it are refused. */
async function refusedUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return `http://127.0.0.1:${port}`;
}

test("a live key: a bank no connected provider serves is 400 S8; with every provider disconnected, 403 S3", async () => {
  const m = await liveMerchant([{ provider: "paystack", priority: 1 }]);
  const access = await call(owo, "POST", "/api/v2/payments/initiates", {
    token: m.token,
    body: body(m.publicKey, { paymentType: "USSD", bankCode: "044" }),
  });
  assert.equal(access.status, 400, access.text);
  assert.equal(access.json.data.code, "S8");
  const gtb = await call(owo, "POST", "/api/v2/payments/initiates", {
    token: m.token,
    body: body(m.publicKey, { paymentType: "USSD", bankCode: "058" }),
  });
  assert.equal(gtb.status, 200, gtb.text);
  assert.match(gtb.json.data.payments.ussdDailCode, /^\*737\*/);

  await disconnectProvider(m.merchantId, m.ids["paystack:1"] ?? "");
  const none = await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body: body(m.publicKey) });
  assert.equal(none.status, 403, none.text);
  assert.equal(none.json.data.code, "S3");
});

test("the first provider down (5xx, a hang past the timeout, a refused connection): the next one issues", async () => {
  const m = await liveMerchant([
    { provider: "paystack", priority: 1 },
    { provider: "flutterwave", priority: 2 },
  ]);
  for (const kind of ["5xx", "hang"]) {
    await fault(paystack, kind);
    const req = body(m.publicKey);
    const res = await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body: req });
    assert.equal(res.status, 200, `${kind}: ${res.text}`);
    const verify = await call(owo, "GET", `/api/v3/payments/query/${req.paymentReference}`, { token: m.token });
    assert.equal(verify.json.data.payments.provider, "flutterwave", kind);
  }
  await clearFaults(paystack);
  const refused = await liveMerchant([
    { provider: "paystack", priority: 1, baseUrl: await refusedUrl() },
    { provider: "flutterwave", priority: 2 },
  ]);
  const req = body(refused.publicKey);
  const res = await call(owo, "POST", "/api/v2/payments/initiates", { token: refused.token, body: req });
  assert.equal(res.status, 200, res.text);
  assert.equal(
    (await call(owo, "GET", `/api/v3/payments/query/${req.paymentReference}`, { token: refused.token })).json.data.payments.provider,
    "flutterwave",
  );
});

test("all providers down: 502 S502 naming each failure, nothing stored; the same request later succeeds", async () => {
  const m = await liveMerchant([
    { provider: "paystack", priority: 1 },
    { provider: "flutterwave", priority: 2 },
  ]);
  await fault(paystack, "5xx");
  await fault(flutterwave, "hang");
  const req = body(m.publicKey);
  const down = await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body: req });
  assert.equal(down.status, 502, down.text);
  assert.equal(down.json.status, "ERROR");
  assert.equal(down.json.data.code, "S502");
  assert.deepEqual(
    down.json.data.errors.map((e: { field: string }) => e.field),
    ["provider.paystack", "provider.flutterwave"],
  );
  assert.match(down.json.data.errors[0].message, new RegExp(`^${m.ids["paystack:1"]}: .*answered 500`));
  assert.equal(down.json.data.errors[1].message, `${m.ids["flutterwave:2"]}: timeout after 3 s`);
  const verify = await call(owo, "GET", `/api/v3/payments/query/${req.paymentReference}`, { token: m.token });
  assert.equal(verify.status, 404, "nothing was stored");

  const later = await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body: req });
  assert.equal(later.status, 200, later.text);
  assert.equal(
    (await call(owo, "GET", `/api/v3/payments/query/${req.paymentReference}`, { token: m.token })).json.data.payments.provider,
    "paystack",
  );
  const replay = await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body: req });
  assert.equal(replay.text, later.text, "a replay answers the same bytes");
});

test("identical requests racing while the provider is slow: issued once, every racer gets the same answer", async () => {
  const m = await liveMerchant([{ provider: "paystack", priority: 1 }]);
  const req = body(m.publicKey);
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body: req })),
  );
  assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
  assert.equal(new Set(answers.map((a) => a.text)).size, 1);
  const ledger = await (
    await fetch(`${paystack.url}/_double/transactions/owo-${JSON.parse(answers[0]?.text ?? "{}").data.payments.linkingReference}-1`)
  ).json();
  assert.ok(ledger.transaction, "the provider saw the first attempt");
  const second = await fetch(
    `${paystack.url}/_double/transactions/owo-${JSON.parse(answers[0]?.text ?? "{}").data.payments.linkingReference}-2`,
  );
  assert.equal(second.status, 404, "and no second one");
});

test("five failures within a minute rest a provider: the next payments go straight to the next one", async () => {
  const m = await liveMerchant([
    { provider: "paystack", priority: 1 },
    { provider: "flutterwave", priority: 2 },
  ]);
  await fault(paystack, "5xx", 5);
  for (let i = 0; i < 5; i++) {
    const res = await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body: body(m.publicKey) });
    assert.equal(res.status, 200, res.text);
  }
  await fault(flutterwave, "5xx");
  const down = await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body: body(m.publicKey) });
  assert.equal(down.status, 502, down.text);
  assert.equal(down.json.data.errors[0].message, `${m.ids["paystack:1"]}: resting after repeated failures`);
  const health = (await providerHealth(m.merchantId)).find((h) => h.providerId === m.ids["paystack:1"]);
  assert.equal(health?.circuit, "resting");
  assert.match(health?.lastFailure ?? "", /answered 500/);
});

test("every provider down: a customer on the hosted checkout or a payment link is told plainly, never which account or what it said", async () => {
  const m = await liveMerchant([{ provider: "paystack", priority: 1, baseUrl: await refusedUrl() }]);
  const standard = await call(owo, "POST", "/api/v2/payments", {
    token: m.token,
    body: { ...body(m.publicKey), paymentType: undefined, redirectUrl: undefined },
  });
  assert.equal(standard.status, 200, standard.text);
  // The customer's browser, signed in as nobody, picks a transfer on the checkout page.
  const chosen = await fetch(`${owo.url}/api/trpc/checkout.choose`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: owo.url },
    body: JSON.stringify({ json: { linkingReference: standard.json.data.payments.linkingReference, paymentType: "TRANSFER" } }),
  });
  const answer = await chosen.text();
  assert.equal(chosen.status, 502, answer);
  assert.ok(answer.includes(PROVIDERS_DOWN_FOR_CUSTOMERS), answer);
  for (const secret of [m.ids["paystack:1"] ?? "prv_", "prv_", "paystack", "ECONNREFUSED", "fetch failed"])
    assert.ok(!answer.toLowerCase().includes(secret.toLowerCase()), `the customer is not shown "${secret}": ${answer}`);

  const link = await createLink(
    { merchantId: m.merchantId, mode: "live" },
    createLinkInput.parse({ title: "Phone order", amount: "1500", channels: ["USSD"] }),
  );
  const customer = { fullName: "Ada Obi", email: "ada@example.com", mobileNumber: "08012345678", paymentType: "USSD", bankCode: "058" };
  const refused = await payByLink(link.slug, customer).then(
    () => assert.fail("no provider could issue it"),
    (e: unknown) => e as { code: string; message: string; errors: unknown[] },
  );
  assert.deepEqual([refused.code, refused.message, refused.errors], ["S502", PROVIDERS_DOWN_FOR_CUSTOMERS, []]);
  // The merchant still sees what failed, on the provider account's health.
  assert.match((await providerHealth(m.merchantId))[0]?.lastFailure ?? "", /refused|ECONNREFUSED|fetch failed/i);
});
