// The typed client keeps its own access token: one exchange for many calls, renewed before it dies, and once after a 401.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../server/testing/harness";
import { sampleOrder } from "../server/testing/initiation";
import { createOwoClient, OwoError } from "./index";

// Tokens of this test server live 4 s, so the client renews about 2 s after each exchange. Time passes by node:test's
// mocked Date, which the client and this in-process Owo both read (Owo through server/clock.ts): no test sleeps.
const TTL_SECONDS = 4;

let owo: Owo;
let merchant: TestMerchant;
let reference = "";

before(async () => {
  owo = await startOwo({ OWO_TOKEN_TTL_SECONDS: String(TTL_SECONDS) });
  merchant = await createTestMerchant("Token Store");
  const setup = createOwoClient({ baseUrl: owo.url, publicKey: merchant.publicKey, secretKey: merchant.secretKey });
  const answer = await setup.initiatePayment.mutate({ ...sampleOrder, paymentType: "TRANSFER", paymentReference: "ord-token" });
  reference = answer.paymentReference;
});
after(() => owo.stop());

type Traffic = { exchanges: number; statuses: number[] };

/** A fetch that counts token exchanges and records every tRPC status; `tamper` may rewrite a request or an answer. */
function observed(
  tamper: {
    request?: (init: RequestInit) => RequestInit;
    exchangeAnswer?: (json: { data: { EncryptedSecKey: { expiresAt: string } } }) => void;
  } = {},
) {
  const traffic: Traffic = { exchanges: 0, statuses: [] };
  const spy: typeof fetch = async (input, init = {}) => {
    const url = String(input);
    if (url.endsWith("/api/v2/encrypt/keys")) {
      traffic.exchanges++;
      const res = await fetch(input, init);
      if (!tamper.exchangeAnswer) return res;
      const json = await res.json();
      tamper.exchangeAnswer(json);
      return new Response(JSON.stringify(json), { status: res.status, headers: res.headers });
    }
    const res = await fetch(input, tamper.request ? tamper.request(init) : init);
    traffic.statuses.push(res.status);
    return res;
  };
  const client = createOwoClient({ baseUrl: owo.url, publicKey: merchant.publicKey, secretKey: merchant.secretKey, fetch: spy });
  return { client, traffic };
}

describe("the client's access token", () => {
  it("is bought once for concurrent calls and reused while fresh", async () => {
    const { client, traffic } = observed();
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.verifyPayment.query({ paymentReference: reference })));
    await client.verifyPayment.query({ paymentReference: reference });
    assert.equal(traffic.exchanges, 1);
    assert.deepEqual(traffic.statuses, [200, 200, 200, 200, 200, 200]);
    assert.ok(answers.every((a) => a.payments.status === "PENDING"));
  });

  it("is renewed before it expires, so no call meets a 401", async (t) => {
    const { client, traffic } = observed();
    t.mock.timers.enable({ apis: ["Date"], now: Date.now() });
    await client.verifyPayment.query({ paymentReference: reference });
    t.mock.timers.tick((TTL_SECONDS * 1000) / 2 + 700); // past the client's renewal point, inside the token's life
    await client.verifyPayment.query({ paymentReference: reference });
    assert.equal(traffic.exchanges, 2);
    assert.deepEqual(traffic.statuses, [200, 200]);
  });

  it("is bought again once when Owo refuses it, and the call goes through", async (t) => {
    // The client is told its token lives a day (a wrong clock, a restored database): Owo's 401 is its only clue.
    const { client, traffic } = observed({
      exchangeAnswer: (json) => {
        json.data.EncryptedSecKey.expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      },
    });
    t.mock.timers.enable({ apis: ["Date"], now: Date.now() });
    await client.verifyPayment.query({ paymentReference: reference });
    t.mock.timers.tick(TTL_SECONDS * 1000 + 500); // past the token's real life: Owo refuses it
    const answer = await client.verifyPayment.query({ paymentReference: reference });
    assert.equal(answer.payments.paymentReference, reference);
    assert.equal(traffic.exchanges, 2);
    assert.deepEqual(traffic.statuses, [200, 401, 200]);
  });

  it("stops after one retry when the new token is refused too", async () => {
    const { client, traffic } = observed({
      request: (init) => ({
        ...init,
        headers: { ...Object.fromEntries(new Headers(init.headers)), authorization: "Bearer owo_test_forged" },
      }),
    });
    const err = await client.verifyPayment.query({ paymentReference: reference }).then(
      () => assert.fail("a forged token was accepted"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof OwoError);
    assert.equal(err.code, "S1");
    assert.equal(err.httpStatus, 401);
    assert.equal(traffic.exchanges, 2);
    assert.deepEqual(traffic.statuses, [401, 401]);
  });
});
