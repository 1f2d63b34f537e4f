// Refunds over both doors (API.md "Refunds"): the rules, replays by refundReference, and the sandbox
// bank paying a refund back within seconds, followed to PROCESSED (or FAILED) with its signed callback.
import assert from "node:assert/strict";
import { test } from "node:test";
import { call, createTestMerchant, tokenFor } from "../testing/harness";
import { transferBody, trpcFailure, ussdBody } from "../testing/initiation";
import { eventually } from "../testing/eventually";
import { refundShop } from "../testing/refund-shop";
import { joinAs, userClient } from "../testing/sessions";
import { refundCallbackExample } from "../openapi/callback-examples";
import { moveClock } from "../clock";
import { followRefunds } from "./refund-follower";
import { SANDBOX_LOST_NOTICE_MARK } from "../providers/sandbox/refunds";
import { and, eq } from "drizzle-orm";
import { db } from "../../db/client";
import { outbox, payments, refunds } from "../../db/schema";
import { SANDBOX_NOTICE_PATH } from "../providers/sandbox/bank";
import { SIGNATURE_HEADER, signNotice } from "../providers/sandbox/notice-signature";
import { settings } from "../settings";
import { refundStatusAnswerExample } from "../openapi/examples";

const shop = refundShop();
const { paid, heard, refund, verify, callbacksOf } = shop;

test("a paid sandbox payment is refunded whole: 200 PENDING, then PROCESSED within seconds with a signed refund.processed", async () => {
  const ref = await paid(heard(ussdBody(shop.s.merchant.publicKey)));

  const res = await refund(ref, { reason: "Out of stock" });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "SUCCESS");
  assert.equal(res.json.data.code, "00");
  assert.equal(res.json.data.message, "Refund accepted");
  const r = res.json.data.refund;
  assert.match(r.refundReference, /^RFD\d{17}$/);
  assert.deepEqual(
    { amount: r.amount, status: r.status, reason: r.reason },
    { amount: "1500.00", status: "PENDING", reason: "Out of stock" },
  );
  assert.ok(Math.abs(Date.parse(r.createdAt) - Date.now()) < 10_000);

  const started = Date.now();
  const settled = await eventually("the refund to be processed", async () => {
    const v = await verify(ref);
    return v.payments.amountRefunded === "1500.00" && v;
  });
  assert.ok(Date.now() - started < 5_000, "the sandbox bank refunds within seconds");
  assert.equal(settled.code, "00", "refunds never change the code");
  assert.equal(settled.payments.status, "SUCCESSFUL");
  assert.equal(settled.payments.amountToRefund, "0.00");
  assert.equal(settled.payments.amountPaid, "1500.00");

  const callbacks = await callbacksOf(ref, 2);
  const last = callbacks.at(-1)!;
  assert.equal(last.event, "refund.processed");
  assert.deepEqual(last.refund, { refundReference: r.refundReference, amount: "1500.00", status: "PROCESSED", reason: "Out of stock" });
  assert.equal(last.amountRefunded, "1500.00");
  assert.equal(last.status, "SUCCESSFUL");
  assert.equal(last.code, "00");
  assert.equal(last.amountToRefund, "0.00");
  assert.ok(Number(last.sequence) > Number(callbacks[0]!.sequence));
  const documented = refundCallbackExample.notificationItems[0]!.notificationRequestItem.data;
  assert.deepEqual(Object.keys(last).sort(), Object.keys(documented).sort(), "/docs/refunds shows the callback as it is sent");

  const detail = await shop.s.trpc.payments.byReference.query({ paymentReference: ref });
  assert.deepEqual(
    detail.timeline.map((e) => e.type),
    ["initiated", "successful", "refund_requested", "refund_processed"],
  );
  assert.deepEqual(
    detail.refunds.map((x) => [x.refundReference, x.amount, x.status]),
    [[r.refundReference, "1500.00", "PROCESSED"]],
  );
  assert.equal(detail.state.refundable, "0.00");
  assert.equal(detail.state.canRefund, false, "nothing is left to refund");

  const more = await refund(ref, { reason: "again", amount: "0.01" });
  assert.equal(more.status, 409, more.text);
  assert.equal(more.json.data.code, "S15");
});

test("a refund whose provider notice has not come is settled by the follower asking the provider (requery)", async () => {
  const ref = await paid(heard(ussdBody(shop.s.merchant.publicKey)));
  // The bank's own notice is lost (the sandbox's mark), so only the follower's question can settle the refund, however
  // late this test runs under load.
  const res = await refund(ref, { reason: `requery me ${SANDBOX_LOST_NOTICE_MARK}` });
  assert.equal(res.status, 200);
  // Past the sandbox bank's settlement and the first check. The clock stays moved to the end: refund.processed's
  // callback is queued at the moved time, and moving back first would leave it due 10 s from now.
  moveClock(10_000);
  try {
    assert.ok((await followRefunds()) >= 1, "the refund was due and asked about");
    const detail = await shop.s.trpc.payments.byReference.query({ paymentReference: ref });
    assert.deepEqual(
      detail.refunds.map((x) => x.status),
      ["PROCESSED"],
    );
    assert.equal(detail.payments.amountRefunded, "1500.00");
    await lateNoticeChangesNothing(ref);
  } finally {
    moveClock(-10_000);
  }
});

async function lateNoticeChangesNothing(ref: string): Promise<void> {
  // The bank's notice still comes (sent here as the bank sends it, signed, so the test knows it came) and changes
  // nothing: one refund.processed only.
  const [paidBack] = await db()
    .select({ paymentId: payments.id, refundId: refunds.providerRefundId })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(and(eq(payments.paymentReference, ref), eq(payments.merchantId, shop.s.merchant.merchantId)));
  const notice = JSON.stringify({ transactionId: `sbx_late_${ref}`, type: "refund", refundId: paidBack?.refundId, state: "processed" });
  const late = await call(shop.s.owo, "POST", SANDBOX_NOTICE_PATH, {
    raw: notice,
    headers: { [SIGNATURE_HEADER]: signNotice(notice, settings().sandboxBankSecret) },
  });
  assert.equal(late.status, 200, late.text);
  const events = await db()
    .select({ event: outbox.event })
    .from(outbox)
    .where(eq(outbox.paymentId, paidBack?.paymentId ?? -1))
    .orderBy(outbox.sequence);
  assert.deepEqual(
    events.map((e) => e.event),
    ["payment.successful", "refund.processed"],
  );
  const callbacks = await callbacksOf(ref, 2);
  assert.deepEqual(
    callbacks.map((c) => c.event),
    ["payment.successful", "refund.processed"],
  );
}

test("only a payment that is not PENDING or PARTIALLY_PAID can be refunded: 409 S15, nothing reserved", async () => {
  const pending = await paid(ussdBody(shop.s.merchant.publicKey), {});
  const part = await paid(transferBody(shop.s.merchant.publicKey), { outcome: "pay", amount: "500.00" });
  for (const [ref, status] of [
    [pending, "PENDING"],
    [part, "PARTIALLY_PAID"],
  ] as const) {
    const res = await refund(ref, { reason: "changed my mind" });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.json.data.code, "S15");
    assert.match(res.json.data.message, new RegExp(`not pending or partially paid.*${status}`));
    const detail = await shop.s.trpc.payments.byReference.query({ paymentReference: ref });
    assert.deepEqual(detail.refunds, []);
    assert.equal(detail.state.canRefund, false);
  }
});

test("more than is refundable is 409 S15; a partial refund leaves the rest; amount and reason are checked", async () => {
  const ref = await paid(transferBody(shop.s.merchant.publicKey, { amount: "1000" }));
  const tooMuch = await refund(ref, { reason: "x", amount: "1000.01" });
  assert.equal(tooMuch.status, 409, tooMuch.text);
  assert.equal(tooMuch.json.data.code, "S15");
  assert.match(tooMuch.json.data.message, /more than is refundable \(1000\.00\)/);

  assert.equal((await refund(ref, { reason: "one item", amount: "400" })).json.data.refund.amount, "400.00");
  const rest = await refund(ref, { reason: "the rest" });
  assert.equal(rest.status, 200, rest.text);
  assert.equal(rest.json.data.refund.amount, "600.00", "no amount: all that is still refundable");
  assert.equal((await refund(ref, { reason: "more" })).status, 409);

  const badAmount = await refund(ref, { reason: "x", amount: "12.345" });
  assert.equal(badAmount.status, 400);
  assert.equal(badAmount.json.data.code, "S2");
  assert.equal(badAmount.json.data.errors[0].field, "amount");
  const zero = await refund(ref, { reason: "x", amount: "0.00" });
  assert.equal(zero.json.data.code, "S2");
  const noReason = await refund(ref, { amount: "1.00", refundReference: "bad ref!" });
  assert.equal(noReason.status, 400);
  assert.equal(noReason.json.data.code, "S5");
  assert.deepEqual(noReason.json.data.errors.map((e: { field: string }) => e.field).sort(), ["reason", "refundReference"]);
  const notObject = await call(shop.s.owo, "POST", `/api/v2/payments/${ref}/refunds`, { token: shop.s.token, raw: "[1]" });
  assert.equal(notObject.json.data.code, "S5");
  const notJson = await call(shop.s.owo, "POST", `/api/v2/payments/${ref}/refunds`, {
    token: shop.s.token,
    raw: "{}",
    headers: { "content-type": "text/plain" },
  });
  assert.equal(notJson.status, 415);
});

test("unknown and other merchants' payments are 404; no token is 401", async () => {
  const ref = await paid(ussdBody(shop.s.merchant.publicKey));
  assert.equal((await refund("no-such-payment", { reason: "x" })).status, 404);
  const otherToken = await tokenFor(shop.s.owo, await createTestMerchant());
  const foreign = await refund(ref, { reason: "x" }, otherToken);
  assert.equal(foreign.status, 404);
  assert.equal(foreign.json.data.code, "S404");
  assert.equal((await call(shop.s.owo, "POST", `/api/v2/payments/${ref}/refunds`, { body: { reason: "x" } })).status, 401);
  assert.deepEqual((await shop.s.trpc.payments.byReference.query({ paymentReference: ref })).refunds, []);
});

test("a repeat with the same refundReference answers the first refund again, over either door, and refunds once", async () => {
  const ref = await paid(transferBody(shop.s.merchant.publicKey, { amount: "2000" }));
  const first = await refund(ref, { reason: "damaged", amount: "300", refundReference: "rf-1" });
  assert.equal(first.status, 200, first.text);
  const again = await refund(ref, { reason: "something else", amount: "900", refundReference: "rf-1" });
  assert.equal(again.status, 200);
  assert.deepEqual(again.json.data, first.json.data);
  const viaTrpc = await shop.s.trpc.payments.refund.mutate({
    paymentReference: ref,
    reason: "damaged",
    amount: "300",
    refundReference: "rf-1",
  });
  assert.deepEqual(viaTrpc, first.json.data);
  await eventually("the refund processed", async () => (await verify(ref)).payments.amountRefunded === "300.00");
  const afterwards = await refund(ref, { reason: "damaged", amount: "300", refundReference: "rf-1" });
  assert.deepEqual(afterwards.json.data, first.json.data, "still the first answer (PENDING), whatever happened since");
  const detail = await shop.s.trpc.payments.byReference.query({ paymentReference: ref });
  assert.equal(detail.refunds.length, 1);
  assert.equal(detail.state.refundable, "1700.00");
});

test("money that arrived after close is refundable too, and a refund never changes amountToRefund or the status", async () => {
  const ref = await paid(ussdBody(shop.s.merchant.publicKey), {});
  assert.equal((await call(shop.s.owo, "POST", `/api/v2/payments/${ref}/cancel`, { token: shop.s.token })).status, 200);
  await call(shop.s.owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token: shop.s.token, body: { outcome: "pay" } });
  const before = await verify(ref);
  assert.deepEqual([before.payments.status, before.payments.amountToRefund], ["CANCELLED", "1500.00"]);
  const res = await refund(ref, { reason: "arrived after cancel" });
  assert.equal(res.json.data.refund.amount, "1500.00");
  const after = await eventually("processed", async () => {
    const v = await verify(ref);
    return v.payments.amountRefunded === "1500.00" && v;
  });
  assert.deepEqual([after.code, after.payments.status, after.payments.amountToRefund], ["S13", "CANCELLED", "1500.00"]);
});

test("a refund the customer's bank refuses ends FAILED with refund.failed, and frees its amount", async () => {
  const ref = await paid(heard(ussdBody(shop.s.merchant.publicKey)));
  const res = await refund(ref, { reason: "sandbox [decline] please", amount: "1000" });
  assert.equal(res.json.data.refund.status, "PENDING");
  const [failed] = (await callbacksOf(ref, 2)).filter((c) => c.event === "refund.failed");
  assert.ok(failed, "refund.failed was sent");
  assert.deepEqual(failed.refund, {
    refundReference: res.json.data.refund.refundReference,
    amount: "1000.00",
    status: "FAILED",
    reason: "sandbox [decline] please",
  });
  assert.equal(failed.amountRefunded, "0.00");
  const detail = await shop.s.trpc.payments.byReference.query({ paymentReference: ref });
  assert.equal(detail.refunds[0]?.status, "FAILED");
  assert.equal(detail.state.refundable, "1500.00");
  assert.equal((await refund(ref, { reason: "try again" })).json.data.refund.amount, "1500.00");
});

test("tRPC payments.refund: API tokens, owners and admins may; developers and viewers are FORBIDDEN", async () => {
  for (const role of ["developer", "viewer", "admin", "owner"] as const) {
    const ref = await paid(ussdBody(shop.s.merchant.publicKey));
    const userId = role === "owner" ? shop.s.merchant.userId : await joinAs(shop.s.merchant, role);
    const client = await userClient(shop.s.owo, userId);
    if (role === "developer" || role === "viewer") {
      const refused = await trpcFailure(client.payments.refund.mutate({ paymentReference: ref, reason: "x" }));
      assert.equal(refused.code, "FORBIDDEN", role);
      assert.equal(refused.apiCode, "S3");
    } else {
      const answer = await client.payments.refund.mutate({ paymentReference: ref, reason: "x", amount: "1" });
      assert.equal(answer.refund.status, "PENDING", role);
    }
  }
  const conflict = await trpcFailure(
    shop.s.trpc.payments.refund.mutate({ paymentReference: await paid(ussdBody(shop.s.merchant.publicKey), {}), reason: "x" }),
  );
  assert.equal(conflict.code, "CONFLICT");
  assert.equal(conflict.apiCode, "S15");
});

test("GET …/refunds/{refundReference}: the refund as it stands now (PENDING, then PROCESSED), as /docs/refunds shows it; none, or another merchant's, is 404 S404", async () => {
  const ref = await paid(ussdBody(shop.s.merchant.publicKey));
  assert.equal((await refund(ref, { amount: "400.00", reason: "one cup broken", refundReference: "status-1" })).status, 200);
  const now = await call(shop.s.owo, "GET", `/api/v2/payments/${ref}/refunds/status-1`, { token: shop.s.token });
  assert.equal(now.status, 200, now.text);
  assert.deepEqual(Object.keys(now.json.data.refund).sort(), Object.keys(refundStatusAnswerExample.data.refund).sort());
  assert.deepEqual([now.json.status, now.json.data.code, now.json.data.message], ["SUCCESS", "00", "Successful"]);
  assert.deepEqual(
    [now.json.data.refund.refundReference, now.json.data.refund.amount, now.json.data.refund.reason],
    ["status-1", "400.00", "one cup broken"],
  );
  await eventually(
    "PROCESSED",
    async () =>
      (await call(shop.s.owo, "GET", `/api/v2/payments/${ref}/refunds/status-1`, { token: shop.s.token })).json.data.refund.status ===
      "PROCESSED",
  );
  const none = await call(shop.s.owo, "GET", `/api/v2/payments/${ref}/refunds/status-2`, { token: shop.s.token });
  assert.deepEqual([none.status, none.json.status, none.json.data.code], [404, "ERROR", "S404"]);
  const other = await createTestMerchant("Someone Else");
  const theirs = await call(shop.s.owo, "GET", `/api/v2/payments/${ref}/refunds/status-1`, { token: await tokenFor(shop.s.owo, other) });
  assert.deepEqual([theirs.status, theirs.json.data.code], [404, "S404"]);
});
