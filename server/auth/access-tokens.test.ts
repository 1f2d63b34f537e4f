// Tokens in use are remembered for a few seconds; a rolled or expired secret, or an expired token, must still end them on time.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { runCli } from "../testing/processes";
import { moveClock } from "../clock";
import { rollSecretKey } from "./api-keys";

const TOKEN_TTL_S = 3600;
let owo: Owo;
before(async () => {
  owo = await startOwo({ OWO_TOKEN_TTL_SECONDS: String(TOKEN_TTL_S) });
});
after(() => owo.stop());

const verify = (token: string) => call(owo, "GET", "/api/v3/payments/query/no-such-order", { token });
const trpcVerify = (token: string) =>
  call(owo, "GET", `/api/trpc/verifyPayment?input=${encodeURIComponent(JSON.stringify({ json: { paymentReference: "no-such-order" } }))}`, {
    token,
  });
/** Time moves on Owo's clock (server/clock.ts): the cache, the token and the secret all read it. */
async function moveOn(ms: number) {
  moveClock(ms);
}

test("a token in use dies at once, over both doors, when its secret is rolled with no grace", async () => {
  const m = await createTestMerchant();
  const token = await tokenFor(owo, m);
  assert.equal((await verify(token)).status, 404, "the token works (and the payment is simply not found)");
  assert.equal((await trpcVerify(token)).status, 404);
  await rollSecretKey({ merchantId: m.merchantId, mode: "test" }, 0);
  assert.equal((await verify(token)).status, 401);
  assert.equal((await trpcVerify(token)).status, 401);
});

test("a token in use dies when its secret's grace period ends, not seconds later", async () => {
  const m = await createTestMerchant();
  const token = await tokenFor(owo, m);
  assert.equal((await verify(token)).status, 404);
  await rollSecretKey({ merchantId: m.merchantId, mode: "test" }, 60);
  assert.equal((await verify(token)).status, 404, "alive during the grace period");
  await moveOn(59_000);
  assert.equal((await verify(token)).status, 404, "alive a second before the grace period ends");
  await moveOn(1_001);
  assert.equal((await verify(token)).status, 401);
});

test("a token in use dies when its own lifetime ends", async () => {
  const m = await createTestMerchant();
  const token = await tokenFor(owo, m);
  assert.equal((await verify(token)).status, 404);
  await moveOn(TOKEN_TTL_S * 1000 - 1_000);
  assert.equal((await verify(token)).status, 404, "alive a second before its lifetime ends");
  await moveOn(1_001);
  assert.equal((await verify(token)).status, 401);
});

test("a roll by another process (the operator CLI) ends tokens in use: at once on SQLite, within OWO_REVOCATION_SECONDS on PostgreSQL", async () => {
  const m = await createTestMerchant();
  const token = await tokenFor(owo, m);
  assert.equal((await verify(token)).status, 404);
  const rolled = runCli(["keys", "roll", "--merchant", m.merchantId, "--json"], owo.dataDir);
  assert.equal(rolled.status, 0, rolled.stderr);
  if (process.env.OWO_TEST_POSTGRES_URL) {
    // No data_version there: the token cache lives OWO_REVOCATION_SECONDS (2 s by default), API.md's bound.
    await moveOn(2_001);
  }
  assert.equal((await verify(token)).status, 401, "the rolled secret's token died with it");
});

test("a rolled test secret is told it is not a current test secret, never about live keys", async () => {
  const m = await createTestMerchant();
  await rollSecretKey({ merchantId: m.merchantId, mode: "test" }, 0);
  const old = await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `${m.secretKey}.${m.publicKey}` } });
  assert.equal(old.status, 401);
  assert.match(old.json.data.message, /this test secret key is not a current test secret/);
  assert.doesNotMatch(old.json.data.message, /live/);
  const mixed = await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `sk_live_${"0".repeat(40)}.${m.publicKey}` } });
  assert.match(mixed.json.data.message, /a live secret key with a test public key/);
});
