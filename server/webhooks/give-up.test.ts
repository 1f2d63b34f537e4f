// The whole retry schedule, shrunk by OWO_WEBHOOK_BACKOFF_SCALE: a receiver that always fails gets
// MAX_ATTEMPTS tries, each wait longer than the last bar jitter, and then the delivery is failed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { MAX_ATTEMPTS } from "./backoff";
import { deliveriesOfPayment } from "./delivery-log";
import { eventually } from "../testing/eventually";
import { credit, openTransfer } from "../testing/in-process-payments";
import { startReceiver, type Receiver } from "../testing/receiver";
import { claimDue } from "./deliveries";
import { resendDelivery } from "./resend";
import { clock } from "../clock";

let owo: Owo;
let m: TestMerchant;
let receiver: Receiver;
before(async () => {
  // About 100 h of schedule in about 4 s.
  owo = await startOwo({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.00001", OWO_ALLOW_PRIVATE_CALLBACKS: "1" });
  m = await createTestMerchant();
  receiver = await startReceiver(() => 503);
});
after(async () => {
  await owo.stop();
  await receiver.stop();
});

test("a receiver that never succeeds gets MAX_ATTEMPTS tries, then the delivery is failed and nothing more is sent", async () => {
  const { paymentReference, accountNumber } = await openTransfer(m.merchantId, receiver.url());
  await credit(accountNumber);
  const failed = await eventually(
    "the delivery to fail",
    async () => {
      const [d] = await deliveriesOfPayment({ merchantId: m.merchantId, mode: "test" }, paymentReference);
      return d?.status === "failed" && d;
    },
    30_000,
  );
  assert.equal(MAX_ATTEMPTS, 16);
  assert.equal(failed.attemptCount, MAX_ATTEMPTS);
  assert.equal(failed.attempts.length, MAX_ATTEMPTS);
  assert.ok(failed.attempts.every((a) => a.statusCode === 503 && a.error === "answered 503"));
  assert.equal(failed.lastError, "answered 503");
  assert.ok(failed.finishedAt !== null && failed.nextAttemptAt === null);
  // 30 s and 12 h scaled: 0.3 ms against 432 ms, so the last waits dwarf the first.
  const at = receiver.received.map((r) => r.at);
  const lastGap = (at[15] ?? 0) - (at[14] ?? 0);
  assert.ok(lastGap >= 300, `last wait ${lastGap} ms`);
  // Nothing more is due, however late: a claim a year on (the worker's own pass, run here) takes nothing for it.
  const aYearOn = clock.now() + 365 * 86_400_000;
  const claimed = await claimDue({ free: 100, freeForHost: () => 100 }, 1_000, aYearOn);
  assert.deepEqual(
    claimed.filter((c) => c.url === receiver.url()),
    [],
  );
  assert.equal(receiver.received.length, MAX_ATTEMPTS);
});

test("a resend asked during the last attempt is still sent when that attempt fails: the delivery is not failed under it", async () => {
  // 503 every time; the last attempt's answer held 1.5 s, while the merchant presses Resend; then 200.
  const last = MAX_ATTEMPTS - 1;
  const flaky = await startReceiver((_r, i) => (i < last ? 503 : i === last ? { status: 503, afterMs: 1_500 } : 200));
  try {
    const scope = { merchantId: m.merchantId, mode: "test" as const };
    const { paymentReference, accountNumber } = await openTransfer(m.merchantId, flaky.url());
    await credit(accountNumber);
    await eventually("the last attempt to arrive", () => flaky.received[last], 30_000);
    const [inFlight] = await deliveriesOfPayment(scope, paymentReference);
    assert.equal(inFlight?.status, "pending", "the last attempt is still unanswered");
    await resendDelivery(scope, inFlight.id);
    const done = await eventually("the resent attempt", async () => {
      const [d] = await deliveriesOfPayment(scope, paymentReference);
      return d?.status === "delivered" && d;
    });
    assert.equal(done.attemptCount, MAX_ATTEMPTS + 1);
    assert.equal(flaky.received.length, MAX_ATTEMPTS + 1);
  } finally {
    await flaky.stop();
  }
});
