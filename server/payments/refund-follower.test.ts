// A refund waiting for the customer's account (NEEDS_ATTENTION) is followed like a pending one: the merchant may give
// the account on Paystack's own dashboard, or give the refund up there, and Paystack's webhook saying so may be lost.
// Owo asks GET /refund/{id} on the follower's schedule and moves it. Over real HTTP against the Paystack double.
import assert from "node:assert/strict";
import { test } from "node:test";
import { call } from "../testing/harness";
import { initiateLiveTransfer, liveSuite } from "../testing/live-merchants";
import { eventually } from "../testing/eventually";
import { ownReference } from "../providers/own-references";

const SECRET_KEY = "sk_test_paystack_follower";
const live = liveSuite("paystack", { secretKey: SECRET_KEY }, { name: "Paystack refunds shop", flags: { "refund-delay-ms": "50" } });

const control = (path: string, body: unknown = {}) =>
  fetch(`${live.double.url}/_double${path}`, { method: "POST", body: JSON.stringify(body) });
const api = (method: string, path: string, body?: unknown) =>
  call(live.owo, method, path, { token: live.m.token, ...(body ? { body } : {}) });

test("NEEDS_ATTENTION refunds Paystack settles by itself, their webhooks lost, end PROCESSED and FAILED by the follower's queries", async () => {
  const ref = `rfa-${process.pid}`;
  // A transfer has no card to return to: Paystack may need the customer's account to pay it back.
  const atPaystack = ownReference("paystack", `${await initiateLiveTransfer(live.owo, live.m, "5000.00", ref)}-1`);
  await control(`/transactions/${atPaystack}/pay`);
  const verify = async () => (await api("GET", `/api/v3/payments/query/${ref}`)).json.data.payments;
  await eventually("paid", async () => (await verify()).status === "SUCCESSFUL", 20_000);

  await control("/integration", { refundsNeedingAttention: 2 });
  const base = `/api/v2/payments/${ref}/refunds`;
  for (const [refundReference, amount] of [
    ["at-dashboard", "2000.00"],
    ["given-up", "1000.00"],
  ])
    assert.equal((await api("POST", base, { amount, reason: "a transfer has no card to return to", refundReference })).status, 200);
  const status = async (r: string) => (await api("GET", `${base}/${r}`)).json.data.refund.status;
  await eventually(
    "both NEEDS_ATTENTION",
    async () => (await status("at-dashboard")) === "NEEDS_ATTENTION" && (await status("given-up")) === "NEEDS_ATTENTION",
  );

  // At Paystack: the merchant gives the account on its dashboard for one, gives the other up; both webhooks are lost.
  assert.equal((await control("/faults", { kind: "drop-webhook", times: 2 })).status, 200);
  const inspected = (await (await fetch(`${live.double.url}/_double/transactions/${atPaystack}`)).json()) as {
    refunds: { id: number; amount: number }[];
  };
  const idOf = (kobo: number) => inspected.refunds.find((r) => r.amount === kobo)?.id;
  assert.equal((await control(`/refunds/${idOf(200000)}/status`, { status: "processed" })).status, 200);
  assert.equal((await control(`/refunds/${idOf(100000)}/status`, { status: "failed" })).status, 200);
  const sent = (await (await fetch(`${live.double.url}/_double/webhooks`)).json()) as {
    webhooks: { event: string; answer: number | string }[];
  };
  assert.deepEqual(
    sent.webhooks.filter((w) => w.event === "refund.processed" || w.event === "refund.failed").map((w) => [w.event, w.answer]),
    [
      ["refund.processed", "dropped"],
      ["refund.failed", "dropped"],
    ],
  );

  await eventually(
    "asked and moved",
    async () => (await status("at-dashboard")) === "PROCESSED" && (await status("given-up")) === "FAILED",
    20_000,
  );
  const v = await verify();
  assert.deepEqual([v.amountRefunded, v.status], ["2000.00", "SUCCESSFUL"]);
  const refunds = (
    (await api("GET", "/api/v2/ledger/entries?limit=500")).json.data.entries as { kind: string; refundReference: string | null }[]
  ).filter((e) => e.kind === "refund");
  assert.deepEqual(
    refunds.map((e) => e.refundReference),
    ["at-dashboard"],
    "the refund paid back is booked once; the one given up books nothing",
  );
});
