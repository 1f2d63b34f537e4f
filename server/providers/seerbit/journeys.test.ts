// Live payments through SeerBit end to end over real HTTP: Owo, the SeerBit double as its own process (written from
// SeerBit's documents: ./double.ts), the merchant's callback receiver. The customer pays at the double; its notice
// reaches Owo's notice URL (set on the double's "dashboard"), is acknowledged at once by echoing its
// X-Expected-Ack-Reference, and moves money only once SeerBit's query agrees; the credit is the amount asked and the
// merchant's fee is SeerBit's by API.md's rule. Refunds go to SeerBit only for an account the merchant marked
// refund-enabled; otherwise 409 S15.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually } from "../../testing/eventually";
import { call, startOwo, type Owo } from "../../testing/harness";
import { connectLiveMerchant, initiateLive, type LiveMerchant } from "../../testing/live-merchants";
import { spawnDouble, type DoubleProcess } from "../../testing/processes";
import { startReceiver, type Receiver } from "../../testing/receiver";
import { userClient } from "../../testing/sessions";
import { findPayment } from "../../payments/lookup";
import { providerNoticesOf } from "../notice-log";
import { db } from "../../../db/client";

const KEYS = { publicKey: "SBTESTPUBK_journeys", secretKey: "SBTESTSECK_journeys" };
type Shop = LiveMerchant & { double: DoubleProcess };
let owo: Owo;
let receiver: Receiver;
/** The merchant bears SeerBit's fee here; the customer bears it at the other shop's SeerBit. */
let merchantBears: Shop;
let customerBears: Shop;

// Connected, and the notice URL pasted as the webhook URL, as the merchant does on SeerBit's dashboard (Settings > Webhook).
const shop = async (name: string, double: DoubleProcess): Promise<Shop> => ({
  ...(await connectLiveMerchant(owo, double, name, "seerbit", KEYS)),
  double,
});

before(async () => {
  const flags = { "public-key": KEYS.publicKey, "secret-key": KEYS.secretKey, "retry-delays-ms": "100,300" };
  let doubles: DoubleProcess[];
  [owo, receiver, ...doubles] = await Promise.all([
    startOwo({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001", OWO_REQUERY_BACKOFF_SCALE: "0.1", OWO_PROVIDER_TIMEOUT_MS: "6500" }),
    startReceiver(),
    spawnDouble("seerbit", flags),
    spawnDouble("seerbit", { ...flags, "fee-bearer": "customer" }),
  ]);
  merchantBears = await shop("SeerBit shop", doubles[0] as DoubleProcess);
  customerBears = await shop("SeerBit shop, customer pays fees", doubles[1] as DoubleProcess);
});
after(async () => {
  await Promise.all([merchantBears.double.stop(), customerBears.double.stop()]);
  await receiver.stop();
  await owo.stop();
});

async function initiate(s: Shop, patch: Record<string, unknown>) {
  const p = await initiateLive(owo, s, { amount: "2500.00", ...patch }, receiver);
  const atSeerBit = (await findPayment({ merchantId: s.merchantId, mode: "live" }, p.paymentReference)).issueReference ?? "";
  return { ...p, atSeerBit };
}

const verify = async (s: Shop, ref: string) =>
  (await call(owo, "GET", `/api/v3/payments/query/${ref}`, { token: s.token })).json.data.payments;
const customer = (s: Shop, action: "pay" | "decline", reference: string) =>
  fetch(`${s.double.url}/_double/transactions/${reference}/${action}`, { method: "POST", body: "{}" });
type Delivery = { event: string; body: string; headers: Record<string, string>; answer: number | string };
/** The double's webhooks as sent, with Owo's answer to each (GET waits until every queued one was answered). */
const deliveries = async (s: Shop) =>
  ((await (await fetch(`${s.double.url}/_double/webhooks`)).json()) as { webhooks: Delivery[] }).webhooks;
const noticesOf = async (s: Shop, ref: string) => {
  return (await providerNoticesOf(db(), { merchantId: s.merchantId, mode: "live" }, ref)).map((x) => [x.source, x.outcome]);
};

test("USSD: SeerBit's dial code; paid at SeerBit, its notice is acknowledged as SeerBit asks and, confirmed by its query, credits ₦2,500.00 with the merchant's fee", async () => {
  const p = await initiate(merchantBears, { paymentType: "USSD", bankCode: "058" });
  assert.match(p.payments.ussdDailCode, /^\*737\*000\*\d{4}#$/);
  assert.match(p.payments.providerreference, /^CSEERBIT\d{20}$/);
  assert.equal((await customer(merchantBears, "pay", p.atSeerBit)).status, 200);
  const [delivery] = (await deliveries(merchantBears)).filter((d) => d.body.includes(p.atSeerBit));
  assert.equal(delivery?.answer, 200, "acknowledged: 200 with the ackReference echoed");
  await eventually("the notice applied", async () => (await noticesOf(merchantBears, p.paymentReference)).length > 0);
  assert.deepEqual(await noticesOf(merchantBears, p.paymentReference), [["notice", "applied"]], "the notice did it, not a requery");
  const v = await verify(merchantBears, p.paymentReference);
  // SeerBit's fee on ₦2,500.00 at the double's 1.5%: ₦37.50, all the merchant's.
  assert.deepEqual([v.status, v.amountPaid, v.feeAmount, v.provider, v.mode], ["SUCCESSFUL", "2500.00", "37.50", "seerbit", "live"]);
  const callback = await eventually("the merchant's callback", () => receiver.received.find((r) => r.path === `/cb/${p.paymentReference}`));
  assert.match(callback.body, /"event":"payment.successful"/);
});

test("TRANSFER with the customer bearing SeerBit's fee: ₦2,537.50 charged, ₦2,500.00 credited (not overpaid), merchant's fee ₦0.00", async () => {
  const p = await initiate(customerBears, { paymentType: "TRANSFER" });
  assert.deepEqual([p.payments.bankName, p.payments.walletName], ["Providus Bank", "SeerBit"]);
  const stored = await findPayment({ merchantId: customerBears.merchantId, mode: "live" }, p.paymentReference);
  assert.equal(
    stored.providerReference,
    p.atSeerBit,
    "SeerBit's TRANSFER answer has no linkingReference: its paymentReference is the reference",
  );
  await customer(customerBears, "pay", p.atSeerBit);
  const [delivery] = (await deliveries(customerBears)).filter((d) => d.body.includes(p.atSeerBit));
  assert.match(delivery?.body ?? "", /"amount":2537.5,/);
  assert.equal(delivery?.answer, 200);
  await eventually("credited", async () => (await verify(customerBears, p.paymentReference)).status === "SUCCESSFUL");
  const v = await verify(customerBears, p.paymentReference);
  assert.deepEqual([v.amountPaid, v.amountToRefund, v.feeAmount], ["2500.00", "0.00", "0.00"]);
});

test("a notice is acknowledged before Owo asks SeerBit: with SeerBit's query hanging past its 5 s deadline the ack still comes at once", async () => {
  const p = await initiate(merchantBears, { paymentType: "TRANSFER" });
  await fetch(`${merchantBears.double.url}/_double/faults`, {
    method: "POST",
    body: JSON.stringify({ kind: "hang", path: "/api/v3/payments/query" }),
  });
  const started = Date.now();
  await customer(merchantBears, "pay", p.atSeerBit);
  const sent = (await deliveries(merchantBears)).filter((d) => d.body.includes(p.atSeerBit));
  assert.deepEqual(
    sent.map((d) => d.answer),
    [200],
    "one delivery, acknowledged: no retry",
  );
  assert.ok(Date.now() - started < 5_000, "answered within SeerBit's deadline");
  const queried = `GET /api/v3/payments/query/${p.atSeerBit}`;
  const asked = async () =>
    ((await (await fetch(`${merchantBears.double.url}/_double/requests`)).json()) as { requests: string[] }).requests;
  await eventually("Owo's query of the notice (it hangs)", async () => (await asked()).includes(queried));
  assert.deepEqual(await noticesOf(merchantBears, p.paymentReference), [], "acknowledged while its query is still out");
  // The merchant's verify asks SeerBit again (the hung query took the fault) and settles it.
  await eventually("settled by verify's query", async () => (await verify(merchantBears, p.paymentReference)).status === "SUCCESSFUL");
  assert.deepEqual(await noticesOf(merchantBears, p.paymentReference), [["requery", "applied"]]);
});

test("a made-up notice (SeerBit's notices are unsigned) is acknowledged but moves nothing: SeerBit's query says S20", async () => {
  const p = await initiate(merchantBears, { paymentType: "TRANSFER" });
  const forged = {
    notificationItems: [
      {
        notificationRequestItem: {
          eventType: "transaction",
          eventId: `forged-${p.paymentReference}`,
          data: { reference: p.atSeerBit, amount: 2500, code: "00", currency: "NGN" },
        },
      },
    ],
  };
  const res = await fetch(merchantBears.noticeUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "x-expected-ack-reference": "ack-forged" },
    body: JSON.stringify(forged),
  });
  assert.deepEqual([res.status, await res.json()], [200, { ackReference: "ack-forged", status: "received" }]);
  await eventually("the notice weighed", async () => (await noticesOf(merchantBears, p.paymentReference)).length > 0);
  assert.deepEqual(await noticesOf(merchantBears, p.paymentReference), [["notice", "rejected"]]);
  assert.deepEqual([(await verify(merchantBears, p.paymentReference)).status], ["PENDING"]);
});

test("refunds: 409 S15 until the merchant marks the account refund-enabled (tRPC, as the Providers page does); then refunded at SeerBit's refund endpoint", async () => {
  const p = await initiate(merchantBears, { paymentType: "USSD", bankCode: "044" });
  await customer(merchantBears, "pay", p.atSeerBit);
  await eventually("paid", async () => (await verify(merchantBears, p.paymentReference)).status === "SUCCESSFUL");
  const refund = () =>
    call(owo, "POST", `/api/v2/payments/${p.paymentReference}/refunds`, {
      token: merchantBears.token,
      body: { amount: "700.00", reason: "one item back", refundReference: `RFD-${p.paymentReference}` },
    });
  const refused = await refund();
  assert.deepEqual([refused.status, refused.json.data.code], [409, "S15"]);
  assert.match(refused.json.data.message, /refund it at the provider/);
  const dashboard = await userClient(owo, merchantBears.userId);
  await dashboard.providers.setRefunds.mutate({ providerId: merchantBears.providerId, enabled: true });
  const listed = await dashboard.providers.list.query();
  assert.deepEqual(
    listed.providers.map((x) => [x.provider, x.refundsNeedApproval, x.refundsEnabled]),
    [["seerbit", true, true]],
  );
  const accepted = await refund();
  assert.equal(accepted.status, 200, accepted.text);
  await eventually("refunded at SeerBit", async () => (await verify(merchantBears, p.paymentReference)).amountRefunded === "700.00");
  const asked = ((await (await fetch(`${merchantBears.double.url}/_double/requests`)).json()) as { requests: string[] }).requests;
  assert.ok(asked.includes("POST /api/v2/payments/refunds"));
});
