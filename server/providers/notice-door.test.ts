// The provider notice door as an attacker uses it: a flood of forged notices, notices naming a live payment to make
// Owo ask the provider again and again, and plain volume. Refused notices are kept in aggregate, queries are coalesced
// per payment, and the door is limited per provider account and per client IP.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { eventually } from "../testing/eventually";
import { createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { initiateLive } from "../testing/live-merchants";
import { spawnDouble, type DoubleProcess } from "../testing/processes";
import { ownReference } from "./own-references";
import { paystackSignature } from "./paystack/signature";
import { connectProvider } from "./accounts";
import { createLiveKeys } from "../auth/api-keys";
import { db } from "../../db/client";
import { providerNotices } from "../../db/schema";
import { eq } from "drizzle-orm";
import { noticesWaiting } from "../payments/notices";
import { NOTICE_BURST } from "../limits/rate-limits";
import { settings } from "../settings";

const SECRET_KEY = "sk_test_notice_door";
let owo: Owo;
let double: DoubleProcess;

before(async () => {
  [owo, double] = await Promise.all([
    // A provider's stall ends when the test releases it, never by Owo's timeout racing a loaded machine.
    startOwo({ OWO_PROVIDER_TIMEOUT_MS: "120000", OWO_REQUERY_BACKOFF_SCALE: "1000" }),
    spawnDouble("paystack", { "secret-key": SECRET_KEY }),
  ]);
});
after(async () => {
  await double.stop();
  await owo.stop();
});

/** A merchant with Paystack connected (through the double) and live keys; its account's notice URL. */
async function liveMerchant() {
  const m = await createTestMerchant();
  const { providerId, noticeUrl } = await connectProvider(m.merchantId, {
    provider: "paystack",
    credentials: { secretKey: SECRET_KEY },
    baseUrl: double.url,
  });
  const keys = await createLiveKeys(m.merchantId);
  return { ...m, providerId, noticeUrl, publicKey: keys.publicKey, token: await tokenFor(owo, keys) };
}

const post = (url: string, body: string, signature: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-paystack-signature": signature }, body });

async function rowsOf(providerId: string) {
  return db().select().from(providerNotices).where(eq(providerNotices.providerAccountId, providerId));
}

test("thirty forged notices are refused 401 and kept as one row that counts them", async () => {
  const m = await liveMerchant();
  for (let i = 0; i < 30; i++) {
    const res = await post(m.noticeUrl, JSON.stringify({ event: "charge.success", data: { reference: `forged-${i}` } }), "ab".repeat(64));
    assert.equal(res.status, 401);
  }
  const rows = await rowsOf(m.providerId);
  assert.equal(rows.length, 1, "one row, not thirty");
  assert.deepEqual([rows[0]?.outcome, rows[0]?.count], ["rejected", 30]);
});

test("notices naming one live payment at once make one query to the provider, not one each, and one row", async () => {
  const m = await liveMerchant();
  const p = await initiateLive(owo, m, {
    amount: "5000.00",
    paymentReference: `door-${process.pid}`,
    paymentType: "USSD",
    bankCode: "058",
  });
  const atPaystack = ownReference("paystack", `${p.linkingReference}-1`);
  // Paystack's own charge.success sample, claiming this payment was paid; signed, so only its query can refute it.
  const sample = (
    JSON.parse(readFileSync(new URL("./paystack/fixtures/webhook-charge-success-ussd.json", import.meta.url), "utf8")) as {
      body: { data: Record<string, unknown> };
    }
  ).body;
  const verifies = async () =>
    ((await (await fetch(`${double.url}/_double/requests`)).json()) as { requests: string[] }).requests.filter(
      (r) => r === `GET /transaction/verify/${atPaystack}`,
    ).length;
  const before = await verifies();
  // The provider stalls on the first question until every notice waits on it, then fails: nothing is confirmed.
  await fetch(`${double.url}/_double/faults`, { method: "POST", body: JSON.stringify({ kind: "hang", path: "/transaction/verify" }) });
  const answering = Promise.all(
    Array.from({ length: 20 }, (_, i) => {
      const body = JSON.stringify({ ...sample, data: { ...sample.data, id: 9000 + i, reference: atPaystack, amount: 500000 } });
      return post(m.noticeUrl, body, paystackSignature(body, SECRET_KEY)).then((r) => r.status);
    }),
  );
  await eventually("twenty notices waiting on Paystack's answer", () => noticesWaiting() === 20);
  await fetch(`${double.url}/_double/faults/release`, { method: "POST" });
  const answers = await answering;
  assert.ok(
    answers.every((s) => s === 502),
    `unconfirmed, so each is answered for the provider to send again: ${answers.join(",")}`,
  );
  assert.equal((await verifies()) - before, 1, "one question to Paystack for twenty notices");
  const unanswered = (await rowsOf(m.providerId)).filter((r) => r.source === "notice");
  assert.equal(unanswered.length, 1);
  assert.equal(unanswered[0]?.count, 20);
});

test("the notice door takes a burst, then refuses 429 S429: never more than its budget gets through", async () => {
  const m = await liveMerchant();
  const started = Date.now();
  const statuses = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      post(m.noticeUrl, JSON.stringify({ event: "charge.success", data: { reference: `burst-${i}` } }), "cd".repeat(64)).then(
        async (r) => [r.status, r.status === 429 ? ((await r.json()) as { data: { code: string } }).data.code : ""] as const,
      ),
    ),
  );
  // The budget refills while the burst is served: what got through is the burst plus what refilled meanwhile, no more.
  const budget = NOTICE_BURST + Math.ceil((settings().noticeRateLimitRps * (Date.now() - started)) / 1000);
  const through = statuses.filter(([s]) => s === 401).length;
  assert.ok(through <= budget, `${through} got through a budget of ${budget}`);
  // Refused ones are certain only when the refill could not cover all 200 (a machine slow enough to take many seconds
  // over them refills that much, and then every notice may rightly pass).
  if (budget < statuses.length)
    assert.ok(
      statuses.some(([s]) => s === 429),
      `none refused of 200 against a budget of ${budget}`,
    );
  assert.ok(statuses.every(([s, code]) => s === 401 || (s === 429 && code === "S429")));
});
