// Live money end to end over real HTTP: Owo, the Paystack and Flutterwave doubles as their own processes, and the
// merchant's callback receiver. The double's customer pays, the double sends its signed webhook to the provider
// account's notice URL, Owo checks it against the provider's record, settles, and calls the merchant back, signed.
// dialect: sqlite only — it reads the database file through SQLite itself (rawSqlite).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Webhook } from "standardwebhooks";
import { call } from "../testing/harness";
import { customerAt, initiateLive, liveShops, type LiveShop } from "../testing/live-merchants";
import { eventually } from "../testing/eventually";
import { ownReference } from "./own-references";
import { providerNoticesOf } from "./notice-log";
import { findPayment } from "../payments/lookup";
import { settings } from "../settings";
import { signNotice, SIGNATURE_HEADER } from "./sandbox/notice-signature";
import { paystackSignature } from "./paystack/signature";
import { db, rawSqlite as sqlite } from "../../db/client";
import { clock, moveClock } from "../clock";
import { expireOverdue } from "../payments/lifecycle";
import { requeryDue } from "../payments/requery";

const KEYS = {
  paystack: { secretKey: "sk_test_journeys_paystack" },
  flutterwave: { secretKey: "FLWSECK_TEST-journeys-X", secretHash: "journeys-secret-hash" },
};
// Requery at 1/20 of the real schedule: the first ask comes 3 s after issue, so notices are seen first. Connected, and
// the notice URL pasted as the webhook URL, as the merchant does on the provider's dashboard.
const live = liveShops(KEYS, {
  name: "shop",
  env: { OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001", OWO_PROVIDER_TIMEOUT_MS: "15000", OWO_REQUERY_BACKOFF_SCALE: "0.05" },
});

async function initiate(m: LiveShop, patch: Record<string, unknown>) {
  const p = await initiateLive(live.owo, m, { amount: "2500.00", ...patch }, live.receiver);
  // Owo's reference at the provider is the first attempt's, under Owo's own prefix (owo-<linkingReference>-1 at Paystack).
  return { ...p, issueReference: ownReference(m.provider, `${p.linkingReference}-1`) };
}

const verify = async (m: LiveShop, ref: string) =>
  (await call(live.owo, "GET", `/api/v3/payments/query/${ref}`, { token: m.token })).json.data;

async function customerPays(m: LiveShop, issueReference: string, body: Record<string, unknown> = {}) {
  const paid = await customerAt(m.double, "pay", issueReference, body);
  assert.equal(paid.status, 200, JSON.stringify(paid.json));
}

/** The notices (not the requeries) Owo recorded for this payment. */
async function notices(m: LiveShop, paymentReference: string) {
  return (await providerNoticesOf(db(), { merchantId: m.merchantId, mode: "live" }, paymentReference)).filter((x) => x.source === "notice");
}

/** The payment as stored, read without verify (which would ask the provider itself). */
async function stored(m: LiveShop, ref: string) {
  return findPayment({ merchantId: m.merchantId, mode: "live" }, ref);
}

for (const provider of ["paystack", "flutterwave"] as const) {
  for (const channel of ["USSD", "TRANSFER"] as const) {
    test(`${provider} ${channel}: the customer pays, the signed webhook settles it, verify says 00, the merchant's callback is signed with sequence 2`, async () => {
      const m = live.shops[provider];
      const p = await initiate(m, channel === "USSD" ? { paymentType: "USSD", bankCode: "058" } : { paymentType: "TRANSFER" });
      if (channel === "USSD") assert.match(p.payments.ussdDailCode, provider === "paystack" ? /^\*737\*/ : /^\*566\*/);
      else assert.match(p.payments.accountNumber, /^\d{10}$/);
      assert.equal((await verify(m, p.paymentReference)).code, "S20");

      await customerPays(m, p.issueReference);
      const settled = await verify(m, p.paymentReference);
      assert.equal(settled.code, "00");
      assert.equal(settled.payments.status, "SUCCESSFUL");
      assert.equal(settled.payments.amountPaid, "2500.00");
      assert.equal(settled.payments.provider, provider);

      const cb = await eventually("the merchant's callback", () =>
        live.receiver.received.find((r) => r.path === `/cb/${p.paymentReference}`),
      );
      const headers = Object.fromEntries(Object.entries(cb.headers).map(([k, v]) => [k, String(v)]));
      const signed = new Webhook(m.webhookSecret).verify(cb.body, headers) as {
        notificationItems: { notificationRequestItem: { data: Record<string, unknown> } }[];
      };
      const data = signed.notificationItems[0]?.notificationRequestItem.data;
      assert.equal(data?.event, "payment.successful");
      assert.equal(data?.sequence, 2);
      assert.equal(data?.mode, "live");
      assert.equal(data?.provider, provider);
      assert.deepEqual(
        (await notices(m, p.paymentReference)).map((x) => x.outcome),
        ["applied"],
      );
    });
  }
}

test("a forged signature is 401 and moves nothing; the replayed real notice is a recorded duplicate", async () => {
  const m = live.shops.paystack;
  const p = await initiate(m, { paymentType: "USSD", bankCode: "058" });
  const forged = JSON.stringify({
    event: "charge.success",
    data: { reference: p.issueReference, amount: 250000, currency: "NGN", status: "success" },
  });
  const res = await call(live.owo, "POST", `/api/v2/providers/${m.providerId}/notices`, {
    raw: forged,
    headers: { "x-paystack-signature": "0".repeat(128) },
  });
  assert.equal(res.status, 401, res.text);
  assert.equal((await verify(m, p.paymentReference)).payments.status, "PENDING");

  await customerPays(m, p.issueReference);
  const replayed = await fetch(`${m.double.url}/_double/webhooks/replay`, { method: "POST" });
  assert.equal(replayed.status, 200);
  await fetch(`${m.double.url}/_double/webhooks`);
  const after = await verify(m, p.paymentReference);
  assert.equal(after.payments.amountPaid, "2500.00", "credited once");
  const log = await notices(m, p.paymentReference);
  assert.deepEqual(
    log.map((x) => x.outcome),
    ["applied", "duplicate"],
  );
  assert.ok(
    (await providerNoticesOf(db(), { merchantId: m.merchantId, mode: "live" })).some(
      (x) => x.outcome === "rejected" && /signature/.test(x.reason),
    ),
    "the forged one is recorded with its reason",
  );
});

test("a notice whose amount disagrees with the provider's own record moves nothing and is recorded with why", async () => {
  const m = live.shops.paystack;
  const p = await initiate(m, { paymentType: "TRANSFER" });
  await fetch(`${m.double.url}/_double/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind: "amount-mismatch" }),
  });
  await customerPays(m, p.issueReference);
  assert.equal((await stored(m, p.paymentReference)).amountPaidKobo, 0, "the notice's word moved nothing");
  const [only] = await notices(m, p.paymentReference);
  assert.equal(only?.outcome, "rejected");
  assert.match(only?.reason ?? "", /amount: notice 5000\.00, provider's record 2500\.00/);
  // The money the provider really holds is found by asking it: verify's requery credits what its record says.
  assert.equal((await verify(m, p.paymentReference)).payments.amountPaid, "2500.00");
});

test("notices cannot reach across: the sandbox bank's signed notice and another account's URL move no live payment", async () => {
  const m = live.shops.flutterwave;
  const p = await initiate(m, { paymentType: "TRANSFER" });
  const sandbox = JSON.stringify({
    transactionId: "sbx_reach_0001",
    type: "credit",
    amount: "2500.00",
    accountNumber: p.payments.accountNumber,
  });
  const test = await call(live.owo, "POST", "/api/v2/providers/sandbox/notices", {
    raw: sandbox,
    headers: { [SIGNATURE_HEADER]: signNotice(sandbox, settings().sandboxBankSecret) },
  });
  assert.equal(test.status, 404, test.text);

  // A genuine Paystack-signed notice for this reference, sent to the Paystack account's URL: not that account's payment.
  const body = JSON.stringify({
    event: "charge.success",
    data: { id: 1, reference: p.issueReference, amount: 250000, currency: "NGN", status: "success", paid_at: new Date().toISOString() },
  });
  const other = live.shops.paystack;
  const res = await call(live.owo, "POST", `/api/v2/providers/${other.providerId}/notices`, {
    raw: body,
    headers: { "x-paystack-signature": paystackSignature(body, KEYS.paystack.secretKey) },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.data.message, "No payment for this notice; recorded");
  assert.equal((await verify(m, p.paymentReference)).payments.status, "PENDING");
});

/** A payment's timeline and its merchant callbacks, in the words a comparison needs. */
async function history(m: LiveShop, ref: string) {
  const p = await stored(m, ref);
  const events = sqlite()
    .prepare("select sequence, type, status, amount_kobo as amount from payment_events where payment_id = ? order by sequence")
    .all(p.id);
  const callbacks = live.receiver.received
    .filter((r) => r.path === `/cb/${ref}`)
    .map((r) => {
      const d =
        (JSON.parse(r.body) as { notificationItems: { notificationRequestItem: { data: Record<string, unknown> } }[] }).notificationItems[0]
          ?.notificationRequestItem.data ?? {};
      return { event: d.event, sequence: d.sequence, status: d.status, amountPaid: d.amountPaid, code: d.code };
    });
  return { status: p.status, amountPaid: p.amountPaidKobo, events, callbacks };
}

test("a dropped webhook: the requery loop settles the payment with exactly the events and callbacks of a delivered one", async () => {
  const m = live.shops.paystack;
  const delivered = await initiate(m, { paymentType: "TRANSFER" });
  await customerPays(m, delivered.issueReference);
  await eventually("the delivered one's callback", () =>
    live.receiver.received.some((r) => r.path === `/cb/${delivered.paymentReference}`),
  );

  const dropped = await initiate(m, { paymentType: "TRANSFER" });
  await fetch(`${m.double.url}/_double/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind: "drop-webhook" }),
  });
  await customerPays(m, dropped.issueReference);
  assert.equal((await stored(m, dropped.paymentReference)).status, "PENDING", "no notice arrived");
  await eventually(
    "the requery loop's callback",
    () => live.receiver.received.some((r) => r.path === `/cb/${dropped.paymentReference}`),
    20_000,
  );

  const a = await history(m, delivered.paymentReference);
  const b = await history(m, dropped.paymentReference);
  assert.equal(b.status, "SUCCESSFUL");
  assert.deepEqual(b, a);
  assert.deepEqual(await notices(m, dropped.paymentReference), []);
  assert.ok(
    (await providerNoticesOf(db(), { merchantId: m.merchantId, mode: "live" }, dropped.paymentReference)).some(
      (x) => x.source === "requery" && x.outcome === "applied",
    ),
    "the requery is on record",
  );
});

test("nothing expires a live payment without asking its provider: with the provider silent, neither the sweeper nor verify expires it", async () => {
  const m = live.shops.flutterwave;
  const p = await initiate(m, { paymentType: "USSD", bankCode: "058" });
  await fetch(`${m.double.url}/_double/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind: "5xx", times: 1000, path: "/v3/transactions" }),
  });
  moveClock(11 * 60_000); // past the USSD lifetime (10 min)
  assert.equal(await expireOverdue(), 0, "the sweeper leaves it to the requery loop");
  const silent = await verify(m, p.paymentReference);
  assert.equal(silent.payments.status, "PENDING", "verify answers the stored state when the provider does not answer");
  assert.equal(silent.code, "S20");

  await fetch(`${m.double.url}/_double/faults`, { method: "DELETE" });
  await eventually("expired once the provider answered", async () => (await stored(m, p.paymentReference)).status === "EXPIRED", 20_000);
  const expiredCallback = await eventually("payment.expired callback", () =>
    live.receiver.received.find((r) => r.path === `/cb/${p.paymentReference}`),
  );
  assert.match(expiredCallback.body, /"event":"payment.expired"/);
});

test("which time decides: paid at the provider before expiry, heard of only after it, the payment is SUCCESSFUL (not refund due)", async () => {
  const m = live.shops.paystack;
  const p = await initiate(m, { paymentType: "USSD", bankCode: "058" });
  await fetch(`${m.double.url}/_double/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind: "drop-webhook" }),
  });
  await customerPays(m, p.issueReference);
  moveClock(11 * 60_000); // Owo hears nothing until after the 10-minute lifetime
  await eventually("settled by requery", async () => (await stored(m, p.paymentReference)).status !== "PENDING", 20_000);
  const settled = await stored(m, p.paymentReference);
  assert.equal(settled.status, "SUCCESSFUL");
  assert.equal(settled.amountToRefundKobo, 0);
  assert.ok((settled.paidAt ?? Infinity) < settled.expiresAt, "paidAt is the provider's time, inside the lifetime");
});

test("a paid payment is not asked about again: the webhook that closes it ends its requery schedule", async () => {
  const m = live.shops.paystack;
  const p = await initiate(m, { paymentType: "TRANSFER" });
  assert.notEqual((await stored(m, p.paymentReference)).nextRequeryAt, null, "open: asked about on the schedule");
  await customerPays(m, p.issueReference);
  await eventually("settled by the webhook", async () => (await stored(m, p.paymentReference)).status === "SUCCESSFUL");
  assert.equal((await stored(m, p.paymentReference)).nextRequeryAt, null);
  const asks = async () =>
    (await providerNoticesOf(db(), { merchantId: m.merchantId, mode: "live" }, p.paymentReference)).filter((x) => x.source === "requery")
      .length;
  const before = await asks();
  moveClock(20 * 60_000); // long past every ask the open payment had scheduled
  await requeryDue(clock.now(), 1_000);
  assert.equal(await asks(), before, "no ask of Paystack about a payment it already paid");
});
