// A chained Owo as SeerBit, end to end: the merchant's Owo (in this process) issues live payments through its SeerBit
// account, which is a second Owo process on test keys and its sandbox bank. The second Owo's customer pays; its
// unsigned notificationItems callback reaches the first Owo's notice URL, which believes it only once its own query
// of the second Owo agrees; then the merchant is called back, signed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { call, createTestMerchant, startOwo, tempDataDir, tokenFor, type Owo } from "../testing/harness";
import { runCli, spawnOwo, type OwoProcess } from "../testing/processes";
import { eventually, startReceiver, type Receiver } from "../testing/receiver";

let owo: Owo;
let seerbit: OwoProcess;
let seerbitToken = "";
let receiver: Receiver;
let m: { merchantId: string; publicKey: string; token: string; webhookSecret: string; providerId: string };

before(async () => {
  const dataDir = tempDataDir();
  const made = runCli(["merchant", "create", "--name", "Chained SeerBit", "--email", `chain${process.pid}@example.com`, "--password", "a long enough chain password 42", "--json"], dataDir);
  assert.equal(made.status, 0, made.stderr);
  const keys = JSON.parse(made.stdout.trim().split("\n").pop() ?? "{}") as { publicKey: string; secretKey: string };
  [owo, seerbit] = await Promise.all([
    startOwo({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001", OWO_PROVIDER_TIMEOUT_MS: "3000", OWO_REQUERY_BACKOFF_SCALE: "0.05" }),
    spawnOwo(dataDir, { OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001" }),
  ]);
  seerbitToken = await tokenFor({ url: seerbit.url, dataDir, stop: async () => undefined }, keys);
  receiver = await startReceiver();
  const { connectProvider } = await import("./accounts");
  const { createLiveKeys } = await import("../auth/api-keys");
  const merchant = await createTestMerchant("Chain Shop");
  const { providerId } = connectProvider(merchant.merchantId, { provider: "seerbit", credentials: keys, baseUrl: seerbit.url });
  const live = createLiveKeys(merchant.merchantId);
  m = { merchantId: merchant.merchantId, publicKey: live.publicKey, webhookSecret: live.webhookSecret, token: await tokenFor(owo, live), providerId };
});
after(async () => {
  if (seerbit.child.exitCode === null) seerbit.child.kill("SIGTERM");
  await seerbit.exited;
  await receiver.stop();
  await owo.stop();
});

let n = 0;
async function initiate(patch: Record<string, unknown>) {
  const paymentReference = `chain-${process.pid}-${++n}`;
  const res = await call(owo, "POST", "/api/v2/payments/initiates", {
    token: m.token,
    body: {
      publicKey: m.publicKey, amount: "1200.50", fullName: "Ngozi Okafor", mobileNumber: "08031234567", email: "ngozi@example.com", currency: "NGN", country: "NG",
      paymentReference, callbackUrl: receiver.url(`/cb/${paymentReference}`), redirectUrl: "https://shop.example.ng/done", ...patch,
    },
  });
  assert.equal(res.status, 200, res.text);
  return { paymentReference, atSeerbit: `${res.json.data.payments.linkingReference}-1`, payments: res.json.data.payments };
}

async function stored(ref: string) {
  const { findPayment } = await import("../payments/lookup");
  return findPayment(m.merchantId, "live", ref);
}

for (const channel of ["USSD", "TRANSFER"] as const) {
  test(`${channel} via the chained SeerBit: its customer pays, its unsigned notice is confirmed by query, the merchant is called back signed`, async () => {
    const p = await initiate(channel === "USSD" ? { paymentType: "USSD", bankCode: "011" } : { paymentType: "TRANSFER" });
    const paid = await fetch(`${seerbit.url}/api/v2/sandbox/payments/${p.atSeerbit}/simulate`, {
      method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${seerbitToken}` }, body: JSON.stringify({ outcome: "pay" }),
    });
    assert.equal(paid.status, 200, await paid.text());
    const cb = await eventually("the merchant's callback", () => receiver.received.find((r) => r.path === `/cb/${p.paymentReference}`), 20_000);
    const headers = Object.fromEntries(Object.entries(cb.headers).map(([k, v]) => [k, String(v)]));
    const data = (new Webhook(m.webhookSecret).verify(cb.body, headers) as { notificationItems: { notificationRequestItem: { data: Record<string, unknown> } }[] })
      .notificationItems[0]?.notificationRequestItem.data;
    assert.deepEqual([data?.event, data?.sequence, data?.amountPaid, data?.provider, data?.mode], ["payment.successful", 2, "1200.50", "seerbit", "live"]);
    const { providerNoticesOf } = await import("./notice-log");
    assert.ok(providerNoticesOf(m.merchantId, "live", p.paymentReference).some((x) => x.source === "notice" && x.outcome === "applied"), "settled by the notice");
  });
}

test("an unsigned SeerBit notice claiming money the second Owo never received moves nothing", async () => {
  const p = await initiate({ paymentType: "TRANSFER" });
  const forged = JSON.stringify({
    notificationItems: [{ notificationRequestItem: { eventType: "transaction", eventId: "evt_forged_chain_1", eventDate: new Date().toISOString(), data: {
      event: "payment.successful", sequence: 2, paymentReference: p.atSeerbit, linkingReference: (await stored(p.paymentReference)).providerReference, paymentType: "TRANSFER",
      status: "SUCCESSFUL", code: "00", amount: "1200.50", amountPaid: "1200.50", amountToRefund: "0.00", currency: "NGN", mode: "test", updatedAt: new Date().toISOString(),
    } } }],
  });
  const res = await call(owo, "POST", `/api/v2/providers/${m.providerId}/notices`, { raw: forged });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.data.message, "Notice does not match the provider's record; nothing moved");
  assert.equal((await stored(p.paymentReference)).status, "PENDING");
});
