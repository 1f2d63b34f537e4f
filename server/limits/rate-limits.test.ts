// API.md "Limits": token bucket per merchant and mode, per-IP on the public doors, 429 S429 with Retry-After.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { exchangeKeys } from "../auth/access-tokens";
import { moveClock } from "../clock";

let owo: Owo;
let a: TestMerchant;
let b: TestMerchant;
before(async () => {
  owo = await startOwo({ OWO_RATE_LIMIT_RPS: "1", OWO_RATE_LIMIT_BURST: "3", OWO_IP_RATE_LIMIT_PER_MIN: "6" });
  a = await createTestMerchant();
  b = await createTestMerchant();
});
after(() => owo.stop());

const exchange = (m: TestMerchant) => call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `${m.secretKey}.${m.publicKey}` } });

test("per IP on token exchange: the 7th request in a minute is 429 S429 with Retry-After and X-RateLimit-*", async () => {
  const answers = [];
  for (let i = 0; i < 7; i++) answers.push(await exchange(i % 2 ? a : b));
  assert.deepEqual(
    answers.slice(0, 6).map((r) => r.status),
    [200, 200, 200, 200, 200, 200],
  );
  assert.equal(answers[0]?.headers.get("x-ratelimit-limit"), "6");
  assert.equal(answers[0]?.headers.get("x-ratelimit-remaining"), "5");
  const limited = answers[6];
  assert.equal(limited?.status, 429);
  assert.equal(limited?.json.data.code, "S429");
  assert.ok(Number(limited?.headers.get("retry-after")) >= 1);
  assert.equal(limited?.headers.get("x-ratelimit-remaining"), "0");
  assert.ok(Number(limited?.headers.get("x-ratelimit-reset")) >= 1);
});

test("per merchant and mode on token requests, REST and tRPC alike; another merchant is unaffected", async () => {
  const tokenA = (await exchangeKeys({ key: `${a.secretKey}.${a.publicKey}` })).token;
  const tokenB = (await exchangeKeys({ key: `${b.secretKey}.${b.publicKey}` })).token;
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await call(owo, "GET", "/api/v3/payments/query/none", { token: tokenA })).status);
  assert.deepEqual(statuses, [404, 404, 404], "the burst of 3 passes");
  const rest = await call(owo, "GET", "/api/v3/payments/query/none", { token: tokenA });
  assert.equal(rest.status, 429);
  assert.equal(rest.json.data.code, "S429");
  assert.equal(rest.headers.get("retry-after"), "1");
  const trpc = await call(
    owo,
    "GET",
    `/api/trpc/verifyPayment?input=${encodeURIComponent(JSON.stringify({ json: { paymentReference: "none" } }))}`,
    { token: tokenA },
  );
  assert.equal(trpc.status, 429);
  assert.equal(trpc.json.error.json.data.code, "TOO_MANY_REQUESTS");
  assert.equal(trpc.json.error.json.data.apiCode, "S429");
  assert.equal((await call(owo, "GET", "/api/v3/payments/query/none", { token: tokenB })).status, 404, "B has its own bucket");
  moveClock(1100);
  assert.equal((await call(owo, "GET", "/api/v3/payments/query/none", { token: tokenA })).status, 404, "refilled at 1/s");
});

test("security headers on every response; no HSTS over plain http", async () => {
  for (const res of [
    await call(owo, "GET", "/api/v2/banks"),
    await call(owo, "GET", "/api/health"),
    await call(owo, "GET", "/api/trpc/keys.list"),
    await call(owo, "GET", "/nowhere"),
  ]) {
    assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
    assert.equal(res.headers.get("strict-transport-security"), null);
  }
});
