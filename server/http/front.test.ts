// The doors' contract over real HTTP: token exchange, the order of checks, the envelope and X-Request-Id.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Answer, type Owo, type TestMerchant } from "../testing/harness";
import { rollSecretKey } from "../auth/api-keys";
import { moveClock } from "../clock";

let owo: Owo;
let m: TestMerchant;
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant();
});
after(() => owo.stop());

function assertError(res: Answer, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.json.status, "ERROR");
  assert.equal(res.json.data.code, code);
  assert.equal(typeof res.json.data.message, "string");
  assert.ok(Array.isArray(res.json.data.errors));
  assert.match(res.headers.get("x-request-id") ?? "", /^req_/);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
}

test("the right key pair buys a token bound to the merchant", async () => {
  const res = await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `${m.secretKey}.${m.publicKey}` } });
  assert.equal(res.status, 200);
  assert.equal(res.json.status, "SUCCESS");
  assert.equal(res.json.data.code, "00");
  assert.equal(res.json.data.message, "Successful");
  const { encryptedKey, expiresAt } = res.json.data.EncryptedSecKey;
  assert.match(encryptedKey, /^owo_test_/);
  const ttl = Date.parse(expiresAt) - Date.now();
  assert.ok(ttl > 86_300_000 && ttl <= 86_400_000, `24 h lifetime, got ${ttl}`);
  assert.equal(new Date(expiresAt).toISOString(), expiresAt);
});

test("a wrong secret, a swapped pair or another merchant's public key is 401 S1", async () => {
  const other = await createTestMerchant();
  for (const key of [
    `sk_test_${"0".repeat(40)}.${m.publicKey}`,
    `${m.publicKey}.${m.secretKey}`,
    `${m.secretKey}.${other.publicKey}`,
    "nodot",
  ]) {
    assertError(await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key } }), 401, "S1");
  }
  assertError(await call(owo, "POST", "/api/v2/encrypt/keys", { body: {} }), 400, "S5");
});

test("a rolled secret dies at once, or after its grace period, and its tokens with it", async () => {
  const merchant = await createTestMerchant();
  const oldToken = await tokenFor(owo, merchant);
  const rolled = await rollSecretKey({ merchantId: merchant.merchantId, mode: "test" }, 0);
  assert.equal(rolled.publicKey, merchant.publicKey);
  assertError(await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `${merchant.secretKey}.${merchant.publicKey}` } }), 401, "S1");
  assertError(await call(owo, "POST", "/api/v2/payments/initiates", { token: oldToken, body: {} }), 401, "S1");
  const newToken = await tokenFor(owo, { secretKey: rolled.secretKey, publicKey: merchant.publicKey });

  const graced = await rollSecretKey({ merchantId: merchant.merchantId, mode: "test" }, 60);
  assert.equal(
    (await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `${rolled.secretKey}.${merchant.publicKey}` } })).status,
    200,
    "alive during grace",
  );
  assert.notEqual((await call(owo, "GET", "/api/v2/banks", { token: newToken })).status, 401);
  moveClock(60_001); // the grace ends on Owo's clock, however slow this machine
  assertError(await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `${rolled.secretKey}.${merchant.publicKey}` } }), 401, "S1");
  assertError(await call(owo, "POST", "/api/v2/payments/initiates", { token: newToken, body: {} }), 401, "S1");
  await tokenFor(owo, { secretKey: graced.secretKey, publicKey: merchant.publicKey });
});

test("checks run in API.md's order: 404, 405, 413, 401, 415, 400", async () => {
  const token = await tokenFor(owo, m);
  assertError(await call(owo, "GET", "/api/v2/nothing-here"), 404, "S404");
  assertError(await call(owo, "GET", "/api/v3/payments"), 404, "S404");
  const wrongMethod = await call(owo, "GET", "/api/v2/payments/initiates");
  assertError(wrongMethod, 405, "S405");
  assert.equal(wrongMethod.headers.get("allow"), "POST");
  assertError(await call(owo, "POST", "/api/v2/payments/initiates", { raw: JSON.stringify({ pad: "x".repeat(20 * 1024) }) }), 413, "S413");
  assertError(await call(owo, "POST", "/api/v2/payments/initiates", { body: {} }), 401, "S1");
  assertError(await call(owo, "POST", "/api/v2/payments/initiates", { token: "owo_test_forged", body: {} }), 401, "S1");
  assertError(
    await call(owo, "POST", "/api/v2/payments/initiates", { token, raw: "{}", headers: { "content-type": "text/plain" } }),
    415,
    "S415",
  );
  assertError(await call(owo, "POST", "/api/v2/payments/initiates", { token, raw: "{not json" }), 400, "S5");
  assertError(await call(owo, "POST", "/api/v2/payments/initiates", { token, raw: "[1,2]" }), 400, "S5");
});

test("every answer carries a request id, successes too", async () => {
  const res = await call(owo, "GET", "/api/v2/banks");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("x-request-id") ?? "", /^req_[A-Za-z0-9_-]{12}$/);
  const health = await call(owo, "GET", "/api/health");
  assert.deepEqual(health.json, { status: "ok" });
});
