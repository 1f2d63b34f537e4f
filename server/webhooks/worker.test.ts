// The in-process worker against real receivers: retries, signatures, fan-out, 410, redirects, per-host limits.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { eventually } from "../testing/eventually";
import { credit, openTransfer } from "../testing/in-process-payments";
import { startReceiver, type Receiver } from "../testing/receiver";
import * as log from "./delivery-log";
import * as endpoints from "./endpoints";
import * as secrets from "./signing-secrets";
import { resendDelivery } from "./resend";

let owo: Owo;
let m: TestMerchant;
const receivers: Receiver[] = [];
before(async () => {
  owo = await startOwo({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.0005", OWO_ALLOW_PRIVATE_CALLBACKS: "1" });
  m = await createTestMerchant();
});
after(async () => {
  await owo.stop();
  await Promise.all(receivers.map((r) => r.stop()));
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

type Notification = {
  notificationItems: {
    notificationRequestItem: { eventType: string; eventId: string; eventDate: string; data: Record<string, unknown> };
  }[];
};
const itemOf = (body: string) => (JSON.parse(body) as Notification).notificationItems[0]?.notificationRequestItem;

test("a receiver answering 500 five times then 200 gets the event, signed, with one webhook-id throughout", async () => {
  const r = await receiver((_req, i) => (i < 5 ? 500 : 200));
  const { paymentReference, accountNumber } = await openTransfer(m.merchantId, r.url());
  await credit(accountNumber);

  const [delivery] = await eventually("the delivery to end", async () => {
    const list = await log.deliveriesOfPayment({ merchantId: m.merchantId, mode: "test" }, paymentReference);
    return list.length === 1 && list[0]?.status !== "pending" && list;
  });
  assert.ok(delivery);
  assert.equal(delivery.status, "delivered");
  assert.equal(r.received.length, 6);
  const ids = new Set(r.received.map((x) => x.headers["webhook-id"]));
  assert.deepEqual([...ids], [delivery.eventId]);
  assert.equal(new Set(r.received.map((x) => x.body)).size, 1, "the same bytes on every attempt");
  assert.deepEqual(
    delivery.attempts.map((a) => a.statusCode),
    [500, 500, 500, 500, 500, 200],
  );
  assert.deepEqual(
    delivery.attempts.map((a) => a.error),
    ["answered 500", "answered 500", "answered 500", "answered 500", "answered 500", null],
  );
  assert.equal(delivery.attempts[5]?.responseSnippet, "answered 200");
  assert.equal(delivery.attemptCount, 6);
  assert.ok(delivery.finishedAt !== null && delivery.nextAttemptAt === null);
  // Backoff, scaled: each wait is longer than the one before (30 s, 2 min, 10 min … × 0.0005, ±20 %).
  const gaps = r.received.slice(1).map((x, i) => x.at - (r.received[i]?.at ?? 0));
  assert.ok(gaps[4]! > gaps[0]!, `gaps ${gaps.join(",")}`);

  const last = r.received[5]!;
  const verified = new Webhook(m.webhookSecret).verify(last.body, last.headers as Record<string, string>) as Notification;
  const item = verified.notificationItems[0]?.notificationRequestItem;
  assert.equal(item?.eventType, "transaction");
  assert.equal(item?.eventId, delivery.eventId);
  assert.match(item?.eventDate ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(item?.data.event, "payment.successful");
  assert.equal(item?.data.sequence, 2);
  assert.equal(item?.data.paymentReference, paymentReference);
  assert.equal(item?.data.amountPaid, "1500.00");
  assert.equal(last.headers["content-type"], "application/json");
});

test("while a rolled secret's grace runs, both secrets verify the callback", async () => {
  const r = await receiver();
  const fresh = await secrets.rollSigningSecret(m.merchantId, "test", 600);
  const { accountNumber } = await openTransfer(m.merchantId, r.url());
  await credit(accountNumber);
  const got = await eventually("the callback", () => r.received[0]);
  assert.equal((got.headers["webhook-signature"] as string).split(" ").length, 2);
  for (const secret of [m.webhookSecret, fresh]) new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
  assert.throws(() =>
    new Webhook("whsec_" + Buffer.alloc(32, 7).toString("base64")).verify(got.body, got.headers as Record<string, string>),
  );
  m.webhookSecret = fresh;
});

test("one event goes to the callbackUrl and to each endpoint with one webhook-id; an endpoint answering 410 is disabled", async () => {
  const merchant = await createTestMerchant();
  const cb = await receiver();
  const keep = await receiver();
  const gone = await receiver(() => 410);
  const kept = await endpoints.addEndpoint(
    { merchantId: merchant.merchantId, mode: "test" },
    { url: keep.url("/hooks"), description: "ledger" },
  );
  const goneEndpoint = await endpoints.addEndpoint({ merchantId: merchant.merchantId, mode: "test" }, { url: gone.url("/hooks") });
  const { paymentReference, accountNumber } = await openTransfer(merchant.merchantId, cb.url());
  await credit(accountNumber);

  const first = await eventually("three deliveries to end", async () => {
    const list = await log.deliveriesOfPayment({ merchantId: merchant.merchantId, mode: "test" }, paymentReference);
    return list.length === 3 && list.every((d) => d.status !== "pending") && list;
  });
  assert.deepEqual(
    first.map((d) => [d.destination, d.status]),
    [
      ["callback", "delivered"],
      ["endpoint", "delivered"],
      ["endpoint", "cancelled"],
    ],
  );
  const eventId = first[0]?.eventId;
  for (const rc of [cb, keep, gone]) {
    assert.equal(rc.received.length, 1);
    assert.equal(rc.received[0]?.headers["webhook-id"], eventId);
    assert.equal(rc.received[0]?.body, cb.received[0]?.body);
  }
  const listed = await endpoints.listEndpoints({ merchantId: merchant.merchantId, mode: "test" });
  assert.equal(listed.find((e) => e.id === kept.id)?.enabled, true);
  const disabled = listed.find((e) => e.id === goneEndpoint.id);
  assert.equal(disabled?.enabled, false);
  assert.match(disabled?.disabledReason ?? "", /^answered 410 Gone on /);
  assert.equal(
    (await log.deliveriesOfEndpoint({ merchantId: merchant.merchantId, mode: "test" }, goneEndpoint.id))[0]?.attempts[0]?.statusCode,
    410,
  );

  await credit(accountNumber, 500_00); // money after close: payment.refund_due
  const second = await eventually("the next event's deliveries to end", async () => {
    const list = (await log.deliveriesOfPayment({ merchantId: merchant.merchantId, mode: "test" }, paymentReference)).filter(
      (d) => d.sequence === 3,
    );
    return list.length === 2 && list.every((d) => d.status === "delivered") && list;
  });
  assert.deepEqual(
    second.map((d) => d.url),
    [cb.url(), keep.url("/hooks")],
  );
  assert.equal(itemOf(keep.received[1]?.body ?? "")?.data.event, "payment.refund_due");
  assert.equal(gone.received.length, 1, "the disabled endpoint hears nothing more");
});

test("a 410 from a callbackUrl ends that delivery only; a redirect is never followed", async () => {
  const target = await receiver();
  const gone = await receiver(() => 410);
  const redirecting = await receiver(() => ({ status: 302, location: target.url() }));
  const a = await openTransfer(m.merchantId, gone.url());
  const b = await openTransfer(m.merchantId, redirecting.url());
  await credit(a.accountNumber);
  await credit(b.accountNumber);
  const ended = await eventually("the 410 to end the delivery", async () => {
    const [d] = await log.deliveriesOfPayment({ merchantId: m.merchantId, mode: "test" }, a.paymentReference);
    return d?.status === "cancelled" && d;
  });
  assert.equal(ended.attemptCount, 1);
  assert.match(ended.lastError ?? "", /410/);
  await eventually("three attempts at the redirecting receiver", () => redirecting.received.length >= 3);
  const [redirected] = await log.deliveriesOfPayment({ merchantId: m.merchantId, mode: "test" }, b.paymentReference);
  assert.equal(redirected?.status, "pending");
  assert.equal(redirected?.attempts[0]?.error, "answered 302; redirects are not followed");
  assert.equal(target.connections(), 0);
  assert.equal(gone.received.length, 1);
});

test("a slow host holds at most 4 attempts and never delays another host", async () => {
  const slow = await receiver(() => ({ status: 200, afterMs: 1500 }));
  const fast = await receiver();
  const slowPayments = await Promise.all(Array.from({ length: 10 }, () => openTransfer(m.merchantId, slow.url())));
  for (const p of slowPayments) await credit(p.accountNumber);
  await eventually("the slow host to be busy", () => slow.inFlight() >= 4);
  const quick = await openTransfer(m.merchantId, fast.url());
  await credit(quick.accountNumber);
  await eventually("the fast host's callback", () => fast.received.length === 1);
  // The slow host's fifth request can only start once one of its first four has been answered.
  assert.ok(
    slow.received.length === 4 || (fast.received[0]?.at ?? Infinity) < (slow.received[4]?.at ?? 0),
    "the fast host did not wait for the slow one",
  );
  await eventually(
    "every slow delivery",
    async () => {
      const firsts = await Promise.all(
        slowPayments.map(async (p) => (await log.deliveriesOfPayment({ merchantId: m.merchantId, mode: "test" }, p.paymentReference))[0]),
      );
      return firsts.every((d) => d?.status === "delivered");
    },
    15_000,
  );
  assert.equal(slow.maxInFlight(), 4);
  assert.equal(slow.received.length, 10);
});

test("a resend asked while an attempt is in flight is sent after it, even when that attempt is answered 200", async () => {
  const r = await receiver((_req, i) => (i === 0 ? { status: 200, afterMs: 1500 } : 200));
  const scope = { merchantId: m.merchantId, mode: "test" as const };
  const { paymentReference, accountNumber } = await openTransfer(m.merchantId, r.url());
  await credit(accountNumber);
  await eventually("the first attempt to arrive", () => r.received[0]);
  const [inFlight] = await log.deliveriesOfPayment(scope, paymentReference);
  assert.equal(inFlight?.status, "pending", "the first attempt is still unanswered");
  await resendDelivery(scope, inFlight.id);
  const done = await eventually("the resent attempt to be recorded", async () => {
    const [d] = await log.deliveriesOfPayment(scope, paymentReference);
    return d?.status === "delivered" && d.attempts.length === 2 && d;
  });
  assert.equal(r.received.length, 2);
  assert.equal(r.received[1]?.headers["webhook-id"], done.eventId);
  assert.equal(r.received[1]?.body, r.received[0]?.body);
  assert.ok(r.received[1]!.at >= r.received[0]!.at + 1400, "never beside the attempt in flight");
});
