// Cancel over both doors (API.md "Lifecycle"): PENDING → CANCELLED; anything else 409 S15; money after cancel is refund due.
// dialect: sqlite only — it reads the database file through SQLite itself (rawSqlite).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { call, createTestMerchant, tokenFor, type TestMerchant } from "../testing/harness";
import {
  initiated,
  startInitiating,
  transferBody,
  trpcClient,
  trpcFailure,
  ussdBody,
  type InitiatingMerchant,
} from "../testing/initiation";
import { joinAs, userClient } from "../testing/sessions";
import { eventually } from "../testing/eventually";
import { startReceiver, type Receiver } from "../testing/receiver";
import { rawSqlite as sqlite } from "../../db/client";

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

/** The reference of `body`, initiated. */
const initiate = async (body: Record<string, unknown>) => (await initiated(s.owo, s.token, body)).paymentReference as string;

const cancel = (reference: string, token = s.token) =>
  call(s.owo, "POST", `/api/v2/payments/${encodeURIComponent(reference)}/cancel`, { token });

test("REST: a pending payment is cancelled: 200 with verify's payments (CANCELLED, S13), and verify agrees", async () => {
  const ref = await initiate(ussdBody(s.merchant.publicKey));
  const res = await cancel(ref);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "SUCCESS");
  assert.equal(res.json.data.code, "S13");
  assert.equal(res.json.data.message, "Transaction cancelled");
  assert.equal(res.json.data.payments.paymentReference, ref);
  assert.equal(res.json.data.payments.status, "CANCELLED");
  assert.equal(res.json.data.payments.amountPaid, "0.00");

  const verify = await call(s.owo, "GET", `/api/v3/payments/query/${ref}`, { token: s.token });
  assert.equal(verify.json.data.code, "S13");
  assert.equal(verify.json.data.payments.status, "CANCELLED");
  assert.deepEqual(verify.json.data.payments, res.json.data.payments);
});

test("REST: cancelling twice, or a paid, part-paid or declined payment, is 409 S15 and changes nothing", async () => {
  const twice = await initiate(ussdBody(s.merchant.publicKey));
  assert.equal((await cancel(twice)).status, 200);
  const paid = await initiate(ussdBody(s.merchant.publicKey));
  await call(s.owo, "POST", `/api/v2/sandbox/payments/${paid}/simulate`, { token: s.token, body: { outcome: "pay" } });
  const part = await initiate(transferBody(s.merchant.publicKey));
  await call(s.owo, "POST", `/api/v2/sandbox/payments/${part}/simulate`, { token: s.token, body: { outcome: "pay", amount: "100.00" } });
  const declined = await initiate(ussdBody(s.merchant.publicKey));
  await call(s.owo, "POST", `/api/v2/sandbox/payments/${declined}/simulate`, { token: s.token, body: { outcome: "decline" } });

  for (const [ref, status] of [
    [twice, "CANCELLED"],
    [paid, "SUCCESSFUL"],
    [part, "PARTIALLY_PAID"],
    [declined, "FAILED"],
  ] as const) {
    const res = await cancel(ref);
    assert.equal(res.status, 409, `${status}: ${res.text}`);
    assert.equal(res.json.status, "ERROR");
    assert.equal(res.json.data.code, "S15");
    assert.match(res.json.data.message, /^Only a pending payment can be cancelled/);
    assert.match(res.json.data.message, new RegExp(status));
    assert.deepEqual(res.json.data.errors, []);
    const verify = await call(s.owo, "GET", `/api/v3/payments/query/${ref}`, { token: s.token });
    assert.equal(verify.json.data.payments.status, status);
  }
});

test("REST: unknown reference, another merchant's payment, no token: 404, 404, 401; GET is 405", async () => {
  const ref = await initiate(ussdBody(s.merchant.publicKey));
  assert.equal((await cancel("no-such-ref")).json.data.code, "S404");
  const other: TestMerchant = await createTestMerchant();
  const otherToken = await tokenFor(s.owo, other);
  const foreign = await cancel(ref, otherToken);
  assert.equal(foreign.status, 404, foreign.text);
  assert.equal(foreign.json.data.code, "S404");
  const anonymous = await call(s.owo, "POST", `/api/v2/payments/${ref}/cancel`);
  assert.equal(anonymous.status, 401);
  const get = await call(s.owo, "GET", `/api/v2/payments/${ref}/cancel`, { token: s.token });
  assert.equal(get.status, 405);
  assert.equal(get.headers.get("allow"), "POST");
  const verify = await call(s.owo, "GET", `/api/v3/payments/query/${ref}`, { token: s.token });
  assert.equal(verify.json.data.payments.status, "PENDING", "nothing moved");
});

test("money after cancel is refund due; the timeline and the signed callbacks say cancelled, then refund due", async () => {
  const ref = await initiate(transferBody(s.merchant.publicKey, { callbackUrl: receiver.url(`/cb/${Date.now()}`) }));
  assert.equal((await cancel(ref)).status, 200);
  const sim = await call(s.owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token: s.token, body: { outcome: "pay" } });
  assert.equal(sim.status, 200, sim.text);
  assert.equal(sim.json.data.payments.status, "CANCELLED");
  assert.equal(sim.json.data.payments.amountPaid, "0.00");
  assert.equal(sim.json.data.payments.amountToRefund, "1500.00");

  const detail = await s.trpc.payments.byReference.query({ paymentReference: ref });
  assert.deepEqual(
    detail.timeline.map((e) => [e.sequence, e.type, e.status]),
    [
      [1, "initiated", "PENDING"],
      [2, "cancelled", "CANCELLED"],
      [3, "refund_due", "CANCELLED"],
    ],
  );

  const secret = new Webhook(s.merchant.webhookSecret);
  const got = await eventually("both callbacks", () => {
    const mine = receiver.received.filter(
      (r) => JSON.parse(r.body).notificationItems[0].notificationRequestItem.data.paymentReference === ref,
    );
    return mine.length === 2 && mine;
  });
  const data = got
    .map(
      (r) =>
        secret.verify(r.body, {
          "webhook-id": String(r.headers["webhook-id"]),
          "webhook-timestamp": String(r.headers["webhook-timestamp"]),
          "webhook-signature": String(r.headers["webhook-signature"]),
        }) as { notificationItems: { notificationRequestItem: { data: Record<string, unknown> } }[] },
    )
    .map((n) => n.notificationItems[0]!.notificationRequestItem.data)
    .sort((a, b) => Number(a.sequence) - Number(b.sequence));
  assert.deepEqual(
    data.map((d) => [d.event, d.sequence, d.status, d.code, d.amountToRefund]),
    [
      ["payment.cancelled", 2, "CANCELLED", "S13", "0.00"],
      ["payment.refund_due", 3, "CANCELLED", "S13", "1500.00"],
    ],
  );
});

test("a pending payment past its expiry is expired, not cancelled: 409 S15 naming EXPIRED, and the expiry is kept", async () => {
  const ref = await initiate(ussdBody(s.merchant.publicKey));
  sqlite()
    .prepare("update payments set expires_at = ? where payment_reference = ?")
    .run(Date.now() - 1000, ref);
  const res = await cancel(ref);
  assert.equal(res.status, 409, res.text);
  assert.match(res.json.data.message, /EXPIRED/);
  const detail = await s.trpc.payments.byReference.query({ paymentReference: ref });
  assert.deepEqual(
    detail.timeline.map((e) => e.type),
    ["initiated", "expired"],
  );
});

test("tRPC payments.cancel: an API token may; CONFLICT with apiCode S15 for a cancelled one", async () => {
  const ref = await initiate(ussdBody(s.merchant.publicKey));
  const answer = await s.trpc.payments.cancel.mutate({ paymentReference: ref });
  assert.equal(answer.code, "S13");
  assert.equal(answer.payments.status, "CANCELLED");
  const again = await trpcFailure(s.trpc.payments.cancel.mutate({ paymentReference: ref }));
  assert.equal(again.code, "CONFLICT");
  assert.equal(again.httpStatus, 409);
  assert.equal(again.apiCode, "S15");
  const missing = await trpcFailure(trpcClient(s.owo, s.token).payments.cancel.mutate({ paymentReference: "nope" }));
  assert.equal(missing.code, "NOT_FOUND");
});

test("tRPC payments.cancel in the dashboard: owners and admins may, developers and viewers are FORBIDDEN", async () => {
  for (const role of ["developer", "viewer", "admin", "owner"] as const) {
    const ref = await initiate(ussdBody(s.merchant.publicKey));
    const userId = role === "owner" ? s.merchant.userId : await joinAs(s.merchant, role);
    const client = await userClient(s.owo, userId);
    if (role === "developer" || role === "viewer") {
      const refused = await trpcFailure(client.payments.cancel.mutate({ paymentReference: ref }));
      assert.equal(refused.code, "FORBIDDEN", role);
      assert.equal(refused.apiCode, "S3");
      assert.equal((await s.trpc.verifyPayment.query({ paymentReference: ref })).payments.status, "PENDING");
    } else {
      assert.equal((await client.payments.cancel.mutate({ paymentReference: ref })).payments.status, "CANCELLED", role);
    }
  }
});
