// Live refunds followed at the provider, over real HTTP: Owo, the Paystack and Flutterwave doubles as their own
// processes, and the merchant's callback receiver. Paystack announces a refund by a signed webhook at the notice URL;
// Flutterwave only by its record, so Owo asks (requery). Either way: PROCESSED or FAILED, once, with a signed callback.
// What Owo does when it cannot tell whether a refund reached the provider: ./live-refund-lookups.test.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { liveRefundShops } from "../testing/live-refund-shops";
import { providerNoticesOf } from "./notice-log";
import { db } from "../../db/client";

const { live, verify, paidLive, refund, fault, refundCallbacks, refundsOf } = liveRefundShops();

test("Paystack: a part refund is sent to POST /refund, its signed refund.processed webhook settles it, the merchant hears refund.processed", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  const res = await refund(m, ref, { amount: "1000.00", reason: "one item missing", refundReference: "ps-rf-1" });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.data.refund.status, "PENDING");
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.deepEqual(processed?.refund, { refundReference: "ps-rf-1", amount: "1000.00", status: "PROCESSED", reason: "one item missing" });
  assert.equal(processed?.provider, "paystack");
  assert.equal(processed?.amountRefunded, "1000.00");
  const v = await verify(m, ref);
  assert.deepEqual(
    [v.code, v.payments.status, v.payments.amountRefunded, v.payments.amountToRefund],
    ["00", "SUCCESSFUL", "1000.00", "0.00"],
  );
  // The webhook settled it, recorded on the payment: "applied", not "duplicate" (which it would read had the
  // follower's query, a second later at this scale, settled it first). No wall-clock bound: a loaded machine is slow.
  const logged = (await providerNoticesOf(db(), { merchantId: m.merchantId, mode: "live" }, ref)).filter((x) => /^refund /.test(x.reason));
  assert.deepEqual(
    logged.map((x) => x.outcome),
    ["applied"],
    JSON.stringify(logged),
  );
});

test("Paystack: with its refund webhooks dropped, the follower's requery (GET /refund/{id}) settles the refund all the same", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  await fault(m, { kind: "drop-webhook", times: 2 }); // refund.pending and refund.processed
  assert.equal((await refund(m, ref, { reason: "whole order" })).status, 200);
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.equal((processed?.refund as { amount: string }).amount, "2500.00");
  assert.deepEqual(
    (await refundsOf(m, ref)).map((r) => r.status),
    ["PROCESSED"],
  );
});

test("Paystack: a refund the provider fails ends FAILED with refund.failed, and its amount is refundable again", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  await fault(m, { kind: "refund-fails" });
  assert.equal((await refund(m, ref, { amount: "500", reason: "first try" })).status, 200);
  const [failed] = await refundCallbacks(m, ref, 1);
  assert.equal(failed?.event, "refund.failed");
  assert.deepEqual(failed?.refund, {
    refundReference: (await refundsOf(m, ref))[0]?.refundReference,
    amount: "500.00",
    status: "FAILED",
    reason: "first try",
  });
  assert.equal(failed?.amountRefunded, "0.00");
  const again = await refund(m, ref, { reason: "second try" });
  assert.equal(again.json.data.refund.amount, "2500.00", "the failed refund freed its amount");
});

test("Paystack: a 5xx on POST /refund is no verdict: the refund stays PENDING and is sent again until accepted", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  await fault(m, { kind: "5xx", path: "/refund" });
  const res = await refund(m, ref, { amount: "700", reason: "retry me" });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    (await refundsOf(m, ref)).map((r) => r.status),
    ["PENDING"],
  );
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.equal((await verify(m, ref)).payments.amountRefunded, "700.00");
});

test("Flutterwave: no refund webhook; the follower asks GET /v3/refunds/{id} until the refund completes", async () => {
  const m = live.shops.flutterwave;
  const ref = await paidLive(m);
  const res = await refund(m, ref, { amount: "2500.00", reason: "customer changed their mind", refundReference: "flw-rf-1" });
  assert.equal(res.status, 200, res.text);
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.deepEqual(processed?.refund, {
    refundReference: "flw-rf-1",
    amount: "2500.00",
    status: "PROCESSED",
    reason: "customer changed their mind",
  });
  assert.equal(processed?.provider, "flutterwave");
  const more = await refund(m, ref, { amount: "0.01", reason: "more" });
  assert.equal(more.status, 409);
  assert.equal(more.json.data.code, "S15");
});
