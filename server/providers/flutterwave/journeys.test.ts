// Flutterwave's own behaviours end to end over real HTTP: Owo, the Flutterwave double as its own process, and the
// merchant's callback receiver. A declined USSD debit arrives as a failed charge.completed; a dynamic account takes
// one transfer (an under-payment leaves the payment PARTIALLY_PAID and the account dead); a refund is followed at
// Flutterwave until it completes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { call } from "../../testing/harness";
import { callbackEvents, customerAt, initiateLive, liveSuite } from "../../testing/live-merchants";
import { eventually } from "../../testing/eventually";
import { ownReference } from "../own-references";

const KEYS = { secretKey: "FLWSECK_TEST-flw-journeys-X", secretHash: "flw-journeys-hash" };
const live = liveSuite("flutterwave", KEYS, {
  name: "Flutterwave shop",
  env: { OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001" },
  flags: { "refund-delay-ms": "100" },
});

async function initiate(patch: Record<string, unknown>) {
  const p = await initiateLive(live.owo, live.m, { amount: "5000.00", ...patch }, live.receiver);
  return { ...p, issueReference: ownReference("flutterwave", `${p.linkingReference}-1`) };
}

const verify = async (ref: string) => (await call(live.owo, "GET", `/api/v3/payments/query/${ref}`, { token: live.m.token })).json.data;
const customer = (action: "pay" | "decline", issueReference: string, body: Record<string, unknown> = {}) =>
  customerAt(live.double, action, issueReference, body);
const callbacks = (ref: string) => callbackEvents(live.receiver, ref);

test("a declined USSD debit: Flutterwave's failed charge.completed, confirmed by its record, fails the payment and tells the merchant", async () => {
  const p = await initiate({ paymentType: "USSD", bankCode: "057" });
  assert.match(p.payments.ussdDailCode, /^\*566\*002\*\d+#$/);
  assert.equal((await customer("decline", p.issueReference)).status, 200);
  const failed = await verify(p.paymentReference);
  assert.equal(failed.payments.status, "FAILED");
  await eventually("payment.failed callback", () => callbacks(p.paymentReference).includes("payment.failed"));
});

test("an under-paid transfer is PARTIALLY_PAID, and Flutterwave's dynamic account takes nothing more after its one use", async () => {
  const p = await initiate({ paymentType: "TRANSFER" });
  assert.equal(p.payments.bankName, "WEMA BANK");
  assert.equal((await customer("pay", p.issueReference, { amount: 300000 })).status, 200);
  const partly = await verify(p.paymentReference);
  assert.equal(partly.payments.status, "PARTIALLY_PAID");
  assert.equal(partly.payments.amountPaid, "3000.00");
  const rest = await customer("pay", p.issueReference, { amount: 200000 });
  assert.equal(rest.status, 409, "the account expired after use: the customer's bank returns the transfer");
  assert.equal((await verify(p.paymentReference)).payments.amountPaid, "3000.00");
});

test("a refund goes to Flutterwave's refund endpoint and is followed there until it completes: PROCESSED, refund.processed", async () => {
  const p = await initiate({ paymentType: "TRANSFER" });
  await customer("pay", p.issueReference);
  assert.equal((await verify(p.paymentReference)).payments.status, "SUCCESSFUL");
  const res = await call(live.owo, "POST", `/api/v2/payments/${p.paymentReference}/refunds`, {
    token: live.m.token,
    body: { amount: "1200.00", reason: "out of stock", refundReference: `RFD-${p.paymentReference}` },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.data.refund.status, "PENDING");
  const atFlutterwave = (await (await fetch(`${live.double.url}/_double/transactions/${p.issueReference}`)).json()) as {
    refunds: { amount_refunded: number }[];
  };
  assert.deepEqual(
    atFlutterwave.refunds.map((r) => r.amount_refunded),
    [1200],
    "sent as naira 1200.00",
  );
  await eventually("refund PROCESSED", async () => (await verify(p.paymentReference)).payments.amountRefunded === "1200.00");
  await eventually("refund.processed callback", () => callbacks(p.paymentReference).includes("refund.processed"));
});

test("a refund Flutterwave reports `successful` (its word on some pages for `completed`) or `completed-bank-transfer` (its word for a transfer's) is PROCESSED, not left PENDING", async () => {
  const word = (refundPaidWord: string) =>
    fetch(`${live.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ refundPaidWord }) });
  try {
    for (const paidWord of ["successful", "completed-bank-transfer"]) {
      assert.equal((await word(paidWord)).status, 200);
      const p = await initiate({ paymentType: "TRANSFER" });
      await customer("pay", p.issueReference);
      const res = await call(live.owo, "POST", `/api/v2/payments/${p.paymentReference}/refunds`, {
        token: live.m.token,
        body: { amount: "5000.00", reason: "cancelled", refundReference: `RFD-${p.paymentReference}` },
      });
      assert.equal(res.status, 200, res.text);
      const atFlutterwave = async () =>
        ((await (await fetch(`${live.double.url}/_double/transactions/${p.issueReference}`)).json()) as { refunds: { status: string }[] })
          .refunds;
      await eventually(`Flutterwave says ${paidWord}`, async () => (await atFlutterwave())[0]?.status === paidWord);
      await eventually("refund PROCESSED", async () => (await verify(p.paymentReference)).payments.amountRefunded === "5000.00");
      await eventually("refund.processed callback", () => callbacks(p.paymentReference).includes("refund.processed"));
    }
  } finally {
    await word("completed");
  }
});

test("a webhook proven by flutterwave-signature (the HMAC of its body) instead of verif-hash is taken, and pays the payment", async () => {
  const signWith = (webhookSignature: string) =>
    fetch(`${live.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ webhookSignature }) });
  assert.equal((await signWith("flutterwave-signature")).status, 200);
  try {
    const p = await initiate({ paymentType: "TRANSFER" });
    await customer("pay", p.issueReference);
    const sent = (await (await fetch(`${live.double.url}/_double/webhooks`)).json()) as {
      webhooks: { body: string; headers: Record<string, string>; answer: number | string }[];
    };
    const mine = sent.webhooks.filter((w) => w.body.includes(p.issueReference));
    assert.deepEqual(
      mine.map((w) => [Object.keys(w.headers).filter((h) => h.includes("verif") || h.includes("signature")), w.answer]),
      [[["flutterwave-signature"], 200]],
    );
    assert.equal((await verify(p.paymentReference)).payments.status, "SUCCESSFUL");
  } finally {
    await signWith("verif-hash");
  }
});

test("a transfer made in time but found only by a requery after expiry (its webhook lost) is credited in time: Flutterwave's record says when the money arrived", async () => {
  const p = await initiate({ paymentType: "TRANSFER" });
  const fault = (body: Record<string, unknown>) =>
    fetch(`${live.double.url}/_double/faults`, { method: "POST", body: JSON.stringify(body) });
  // The notice is lost and Flutterwave does not answer for a while: nobody at Owo learns of the transfer in time.
  await fault({ kind: "drop-webhook" });
  await fault({ kind: "5xx", times: 1000, path: "/v3/transactions" });
  assert.equal((await customer("pay", p.issueReference)).status, 200);
  const clock = globalThis as unknown as { __owoClockOffsetMs?: number };
  clock.__owoClockOffsetMs = Date.parse(p.payments.expiresAt) - Date.now() + 5 * 60_000;
  try {
    await fetch(`${live.double.url}/_double/faults`, { method: "DELETE" });
    await eventually("the late requery's payment.successful", () => callbacks(p.paymentReference).includes("payment.successful"), 20_000);
  } finally {
    clock.__owoClockOffsetMs = 0;
  }
  const v = (await verify(p.paymentReference)).payments;
  assert.deepEqual([v.status, v.amountPaid, v.amountToRefund], ["SUCCESSFUL", "5000.00", "0.00"]);
  assert.deepEqual(
    callbacks(p.paymentReference).filter((e) => e !== "payment.successful"),
    [],
  );
});
