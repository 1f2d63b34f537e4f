// Refunds over both doors (API.md "Refunds"): the rules, replays by refundReference, racing requests, and the sandbox
// bank paying a refund back within seconds, followed to PROCESSED (or FAILED) with its signed callback.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { call, createTestMerchant, tokenFor } from "../testing/harness";
import { startInitiating, transferBody, trpcFailure, ussdBody, type InitiatingMerchant } from "../testing/initiation";
import { parseAmount } from "../money";
import { eventually } from "../testing/eventually";
import { startReceiver, type Receiver } from "../testing/receiver";
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
import { databaseIn, spawnOwo } from "../testing/processes";
import { refundStatusAnswerExample } from "../openapi/examples";

let s: InitiatingMerchant;
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
  s = await startInitiating({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.0005" });
});
after(async () => {
  await s.owo.stop();
  await receiver.stop();
});

type Data = Record<string, unknown> & { refund?: Record<string, unknown> };

async function paid(body: Record<string, unknown>, simulate: Record<string, unknown> = { outcome: "pay" }): Promise<string> {
  const ref = body.paymentReference as string;
  assert.equal((await call(s.owo, "POST", "/api/v2/payments/initiates", { token: s.token, body })).status, 200);
  if (Object.keys(simulate).length) {
    const sim = await call(s.owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token: s.token, body: simulate });
    assert.equal(sim.status, 200, sim.text);
  }
  return ref;
}

/** The body with its callbacks sent to this file's receiver, at a path naming the payment. */
/** The dashboard's view at any moment: the payment's amountRefunded is the sum of the refunds it lists as PROCESSED. */
function agreeing<V extends { payments: { amountRefunded: string }; refunds: { status: string; amount: string }[] }>(v: V): V {
  const kobo = (naira: string) => parseAmount(naira) ?? NaN;
  const processed = v.refunds.filter((r) => r.status === "PROCESSED").reduce((sum, r) => sum + kobo(r.amount), 0);
  assert.equal(
    kobo(v.payments.amountRefunded),
    processed,
    `amountRefunded ${v.payments.amountRefunded} beside refunds ${JSON.stringify(v.refunds.map((r) => [r.status, r.amount]))}`,
  );
  return v;
}

const heard = (body: Record<string, unknown>) => ({ ...body, callbackUrl: receiver.url(`/cb/${String(body.paymentReference)}`) });

const refund = (ref: string, body: unknown, token = s.token) =>
  call(s.owo, "POST", `/api/v2/payments/${encodeURIComponent(ref)}/refunds`, { token, body });
const verify = async (ref: string) => (await call(s.owo, "GET", `/api/v3/payments/query/${ref}`, { token: s.token })).json.data;

/** The payment's callbacks as its receiver got them, signature checked, in sequence order. */
async function callbacksOf(ref: string, count: number): Promise<Data[]> {
  const hook = new Webhook(s.merchant.webhookSecret);
  const got = await eventually(`${count} callbacks of ${ref}`, () => {
    const mine = receiver.received.filter((r) => r.path === `/cb/${ref}`);
    return mine.length >= count && mine;
  });
  return got
    .map((r) => {
      const headers = {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"]),
      };
      return (hook.verify(r.body, headers) as { notificationItems: { notificationRequestItem: { data: Data } }[] }).notificationItems[0]!
        .notificationRequestItem.data;
    })
    .sort((a, b) => Number(a.sequence) - Number(b.sequence));
}

test("a paid sandbox payment is refunded whole: 200 PENDING, then PROCESSED within seconds with a signed refund.processed", async () => {
  const ref = await paid(heard(ussdBody(s.merchant.publicKey)));

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

  const detail = await s.trpc.payments.byReference.query({ paymentReference: ref });
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
  const ref = await paid(heard(ussdBody(s.merchant.publicKey)));
  // The bank's own notice is lost (the sandbox's mark), so only the follower's question can settle the refund, however
  // late this test runs under load.
  const res = await refund(ref, { reason: `requery me ${SANDBOX_LOST_NOTICE_MARK}` });
  assert.equal(res.status, 200);
  // Past the sandbox bank's settlement and the first check. The clock stays moved to the end: refund.processed's
  // callback is queued at the moved time, and moving back first would leave it due 10 s from now.
  moveClock(10_000);
  try {
    assert.ok((await followRefunds()) >= 1, "the refund was due and asked about");
    const detail = await s.trpc.payments.byReference.query({ paymentReference: ref });
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
    .where(and(eq(payments.paymentReference, ref), eq(payments.merchantId, s.merchant.merchantId)));
  const notice = JSON.stringify({ transactionId: `sbx_late_${ref}`, type: "refund", refundId: paidBack?.refundId, state: "processed" });
  const late = await call(s.owo, "POST", SANDBOX_NOTICE_PATH, {
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
  const pending = await paid(ussdBody(s.merchant.publicKey), {});
  const part = await paid(transferBody(s.merchant.publicKey), { outcome: "pay", amount: "500.00" });
  for (const [ref, status] of [
    [pending, "PENDING"],
    [part, "PARTIALLY_PAID"],
  ] as const) {
    const res = await refund(ref, { reason: "changed my mind" });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.json.data.code, "S15");
    assert.match(res.json.data.message, new RegExp(`not pending or partially paid.*${status}`));
    const detail = await s.trpc.payments.byReference.query({ paymentReference: ref });
    assert.deepEqual(detail.refunds, []);
    assert.equal(detail.state.canRefund, false);
  }
});

test("more than is refundable is 409 S15; a partial refund leaves the rest; amount and reason are checked", async () => {
  const ref = await paid(transferBody(s.merchant.publicKey, { amount: "1000" }));
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
  const notObject = await call(s.owo, "POST", `/api/v2/payments/${ref}/refunds`, { token: s.token, raw: "[1]" });
  assert.equal(notObject.json.data.code, "S5");
  const notJson = await call(s.owo, "POST", `/api/v2/payments/${ref}/refunds`, {
    token: s.token,
    raw: "{}",
    headers: { "content-type": "text/plain" },
  });
  assert.equal(notJson.status, 415);
});

test("unknown and other merchants' payments are 404; no token is 401", async () => {
  const ref = await paid(ussdBody(s.merchant.publicKey));
  assert.equal((await refund("no-such-payment", { reason: "x" })).status, 404);
  const otherToken = await tokenFor(s.owo, await createTestMerchant());
  const foreign = await refund(ref, { reason: "x" }, otherToken);
  assert.equal(foreign.status, 404);
  assert.equal(foreign.json.data.code, "S404");
  assert.equal((await call(s.owo, "POST", `/api/v2/payments/${ref}/refunds`, { body: { reason: "x" } })).status, 401);
  assert.deepEqual((await s.trpc.payments.byReference.query({ paymentReference: ref })).refunds, []);
});

test("a repeat with the same refundReference answers the first refund again, over either door, and refunds once", async () => {
  const ref = await paid(transferBody(s.merchant.publicKey, { amount: "2000" }));
  const first = await refund(ref, { reason: "damaged", amount: "300", refundReference: "rf-1" });
  assert.equal(first.status, 200, first.text);
  const again = await refund(ref, { reason: "something else", amount: "900", refundReference: "rf-1" });
  assert.equal(again.status, 200);
  assert.deepEqual(again.json.data, first.json.data);
  const viaTrpc = await s.trpc.payments.refund.mutate({ paymentReference: ref, reason: "damaged", amount: "300", refundReference: "rf-1" });
  assert.deepEqual(viaTrpc, first.json.data);
  await eventually("the refund processed", async () => (await verify(ref)).payments.amountRefunded === "300.00");
  const afterwards = await refund(ref, { reason: "damaged", amount: "300", refundReference: "rf-1" });
  assert.deepEqual(afterwards.json.data, first.json.data, "still the first answer (PENDING), whatever happened since");
  const detail = await s.trpc.payments.byReference.query({ paymentReference: ref });
  assert.equal(detail.refunds.length, 1);
  assert.equal(detail.state.refundable, "1700.00");
});

test("money that arrived after close is refundable too, and a refund never changes amountToRefund or the status", async () => {
  const ref = await paid(ussdBody(s.merchant.publicKey), {});
  assert.equal((await call(s.owo, "POST", `/api/v2/payments/${ref}/cancel`, { token: s.token })).status, 200);
  await call(s.owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token: s.token, body: { outcome: "pay" } });
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
  const ref = await paid(heard(ussdBody(s.merchant.publicKey)));
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
  const detail = await s.trpc.payments.byReference.query({ paymentReference: ref });
  assert.equal(detail.refunds[0]?.status, "FAILED");
  assert.equal(detail.state.refundable, "1500.00");
  assert.equal((await refund(ref, { reason: "try again" })).json.data.refund.amount, "1500.00");
});

test("20 racing refund requests over both doors asking together for more than arrived: the total never exceeds it", async () => {
  const ref = await paid(transferBody(s.merchant.publicKey, { amount: "1500" }));
  const asks = Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0
      ? refund(ref, { reason: `race ${i}`, amount: "100.00" }).then((r) =>
          r.status === 200 ? "accepted" : `${r.status} ${r.json.data.code}`,
        )
      : s.trpc.payments.refund.mutate({ paymentReference: ref, reason: `race ${i}`, amount: "100.00" }).then(
          () => "accepted",
          async (e: unknown) => {
            const f = await trpcFailure(Promise.reject(e));
            return `${f.httpStatus} ${f.apiCode}`;
          },
        ),
  );
  const outcomes = await Promise.all(asks);
  assert.equal(outcomes.filter((o) => o === "accepted").length, 15, outcomes.join(","));
  assert.deepEqual([...new Set(outcomes.filter((o) => o !== "accepted"))], ["409 S15"]);
  const settled = await eventually("every refund processed", async () => {
    const d = agreeing(await s.trpc.payments.byReference.query({ paymentReference: ref }));
    return d.refunds.every((x) => x.status === "PROCESSED") && d;
  });
  const total = settled.refunds.reduce((sum, x) => sum + Math.round(Number(x.amount) * 100), 0);
  assert.equal(total, 1500_00);
  assert.equal(settled.payments.amountRefunded, "1500.00");
  assert.equal(settled.state.refundable, "0.00");
});

test("20 racing refund requests split between two Owo processes on one database: still never more than arrived", async () => {
  const second = await spawnOwo(databaseIn(s.owo.dataDir));
  try {
    const ref = await paid(transferBody(s.merchant.publicKey, { amount: "1000" }));
    const servers = [s.owo.url, second.url];
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(`${servers[i % 2]}/api/v2/payments/${ref}/refunds`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${s.token}` },
          body: JSON.stringify({ reason: `race ${i}`, amount: "75.00" }),
        });
        return res.status === 200 ? "accepted" : `${res.status} ${((await res.json()) as { data: { code: string } }).data.code}`;
      }),
    );
    // 13 × 75.00 = 975.00 fits in 1000.00; a 14th would not.
    assert.equal(outcomes.filter((o) => o === "accepted").length, 13, outcomes.join(","));
    assert.deepEqual([...new Set(outcomes.filter((o) => o !== "accepted"))], ["409 S15"]);
    const settled = await eventually("every refund processed", async () => {
      const d = agreeing(await s.trpc.payments.byReference.query({ paymentReference: ref }));
      return d.refunds.every((x) => x.status === "PROCESSED") && d;
    });
    assert.equal(settled.payments.amountRefunded, "975.00");
    assert.equal(settled.state.refundable, "25.00");
  } finally {
    second.child.kill("SIGTERM");
    await second.exited;
  }
});

test("tRPC payments.refund: API tokens, owners and admins may; developers and viewers are FORBIDDEN", async () => {
  for (const role of ["developer", "viewer", "admin", "owner"] as const) {
    const ref = await paid(ussdBody(s.merchant.publicKey));
    const userId = role === "owner" ? s.merchant.userId : await joinAs(s.merchant, role);
    const client = await userClient(s.owo, userId);
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
    s.trpc.payments.refund.mutate({ paymentReference: await paid(ussdBody(s.merchant.publicKey), {}), reason: "x" }),
  );
  assert.equal(conflict.code, "CONFLICT");
  assert.equal(conflict.apiCode, "S15");
});

test("GET …/refunds/{refundReference}: the refund as it stands now (PENDING, then PROCESSED), as /docs/refunds shows it; none, or another merchant's, is 404 S404", async () => {
  const ref = await paid(ussdBody(s.merchant.publicKey));
  assert.equal((await refund(ref, { amount: "400.00", reason: "one cup broken", refundReference: "status-1" })).status, 200);
  const now = await call(s.owo, "GET", `/api/v2/payments/${ref}/refunds/status-1`, { token: s.token });
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
      (await call(s.owo, "GET", `/api/v2/payments/${ref}/refunds/status-1`, { token: s.token })).json.data.refund.status === "PROCESSED",
  );
  const none = await call(s.owo, "GET", `/api/v2/payments/${ref}/refunds/status-2`, { token: s.token });
  assert.deepEqual([none.status, none.json.status, none.json.data.code], [404, "ERROR", "S404"]);
  const other = await createTestMerchant("Someone Else");
  const theirs = await call(s.owo, "GET", `/api/v2/payments/${ref}/refunds/status-1`, { token: await tokenFor(s.owo, other) });
  assert.deepEqual([theirs.status, theirs.json.data.code], [404, "S404"]);
});
