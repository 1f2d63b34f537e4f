// Fan-out in batches: events of several merchants and both modes go out together, each to its own destinations only.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { count, isNull } from "drizzle-orm";
import { db } from "../../db/client";
import { outbox } from "../../db/schema";
import { clock } from "../clock";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { sampleOrder } from "../testing/initiation";
import { credit, openPayment, openTransfer } from "../testing/in-process-payments";
import * as log from "./delivery-log";
import * as endpoints from "./endpoints";
import { fanOutPending } from "./fan-out";

let owo: Owo;
before(async () => {
  owo = await startOwo(); // OWO_WORKER off: the test fans out, nothing is sent
});
after(() => owo.stop());

const unfanned = async () => (await db().select({ n: count() }).from(outbox).where(isNull(outbox.fannedOutAt)))[0]?.n ?? 0;

test("a batch of many merchants' events: each goes to its payment's callbackUrl and its merchant's live endpoints of its mode, once", async () => {
  const [a, b] = [await createTestMerchant(), await createTestMerchant()];
  const testOf = (m: { merchantId: string }) => ({ merchantId: m.merchantId, mode: "test" as const });
  const hook = (name: string) => `http://127.0.0.1:9/${name}`;
  await endpoints.addEndpoint(testOf(a), { url: hook("a-ledger") });
  await endpoints.addEndpoint(testOf(a), { url: hook("a-crm") });
  const paused = await endpoints.addEndpoint(testOf(a), { url: hook("a-paused") });
  await endpoints.disableEndpoint(testOf(a), paused.id);
  const gone = await endpoints.addEndpoint(testOf(a), { url: hook("a-gone") });
  await endpoints.deleteEndpoint(testOf(a), gone.id);
  await endpoints.addEndpoint({ merchantId: a.merchantId, mode: "live" }, { url: hook("a-live") });
  await endpoints.addEndpoint(testOf(b), { url: hook("b-ledger") });

  // More events than one batch holds (100), interleaved between the merchants, some with one event and some with two.
  const paid: { merchant: string; reference: string; callback: string; events: number }[] = [];
  for (let i = 0; i < 70; i++) {
    const m = i % 2 ? b : a;
    if (i % 5 === 4) {
      const reference = `one-event-${process.pid}-${i}`;
      const target = await openPayment(m.merchantId, "TRANSFER", 1500_00, reference, clock.now());
      await credit("accountNumber" in target ? target.accountNumber : "");
      paid.push({ merchant: m.merchantId, reference, callback: sampleOrder.callbackUrl, events: 1 });
    } else {
      const callback = hook(`cb-${i}`);
      const { paymentReference, accountNumber } = await openTransfer(m.merchantId, callback);
      await credit(accountNumber);
      await credit(accountNumber, 100_00); // money after it closed: a second event of the same payment
      paid.push({ merchant: m.merchantId, reference: paymentReference, callback, events: 2 });
    }
  }
  assert.ok((await unfanned()) > 100, "the events fill more than one batch");
  let rounds = 0;
  while ((await unfanned()) > 0) {
    await fanOutPending();
    rounds++;
  }
  assert.ok(rounds >= 2 && rounds <= 3, `fanned out in ${rounds} rounds`);
  assert.equal(await fanOutPending(), 0, "nothing is fanned out twice");

  const own = { [a.merchantId]: [hook("a-crm"), hook("a-ledger")], [b.merchantId]: [hook("b-ledger")] };
  for (const p of paid) {
    const list = await log.deliveriesOfPayment(testOf({ merchantId: p.merchant }), p.reference);
    const events = [...new Set(list.map((d) => d.eventId))];
    assert.equal(events.length, p.events, `${p.reference}: its events`);
    for (const event of events) {
      const urls = list.filter((d) => d.eventId === event).map((d) => d.url);
      assert.deepEqual(urls.sort(), [p.callback, ...(own[p.merchant] ?? [])].sort(), `${p.reference}, ${event}`);
    }
  }
});
