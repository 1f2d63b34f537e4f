// Expiry: verify never reports an open payment past its expiry; the sweeper expires the rest; never twice.
// dialect: sqlite only — it reads the database file through SQLite itself (rawSqlite).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually } from "../testing/eventually";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { initiated, transferBody, ussdBody } from "../testing/initiation";
import { moveClock } from "../clock";
import { rawSqlite as sqlite } from "../../db/client";
import { startSweeper } from "./sweeper";
import { expireOverdue } from "./lifecycle";

const LIFETIME_S = 60;
let owo: Owo;
let token: string;
let publicKey: string;

before(async () => {
  owo = await startOwo({
    OWO_TRANSFER_TTL_SECONDS: String(LIFETIME_S),
    OWO_USSD_TTL_SECONDS: String(LIFETIME_S),
    OWO_SWEEP_INTERVAL_SECONDS: "0",
  });
  const m = await createTestMerchant();
  publicKey = m.publicKey;
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

/** Time moves on Owo's clock (server/clock.ts), not the wall's: however slow the machine, a payment is open until moved past. */
async function outliveLifetime() {
  moveClock(LIFETIME_S * 1000 + 1);
}

async function initiate(ref: string, paymentType: "USSD" | "TRANSFER" = "TRANSFER") {
  const order = { amount: "1000", paymentReference: ref };
  await initiated(owo, token, paymentType === "USSD" ? ussdBody(publicKey, order) : transferBody(publicKey, order));
}

async function eventsOf(ref: string) {
  const events = sqlite()
    .prepare(
      "select e.type, e.sequence from payment_events e join payments p on p.id = e.payment_id where p.payment_reference = ? order by e.sequence",
    )
    .all(ref) as { type: string; sequence: number }[];
  const outbox = sqlite()
    .prepare(
      "select o.event, o.sequence from outbox o join payments p on p.id = o.payment_id where p.payment_reference = ? order by o.sequence",
    )
    .all(ref) as { event: string; sequence: number }[];
  return { events, outbox };
}

test("with the sweeper off, verify just after expiry says EXPIRED (S0), and the EXPIRED event exists once", async () => {
  await initiate("exp-verify");
  await outliveLifetime();
  for (let i = 0; i < 3; i++) {
    const res = await call(owo, "GET", "/api/v3/payments/query/exp-verify", { token });
    assert.equal(res.json.data.code, "S0");
    assert.equal(res.json.data.message, "Transaction timed out");
    assert.equal(res.json.data.payments.status, "EXPIRED");
  }
  const { events, outbox } = await eventsOf("exp-verify");
  assert.deepEqual(events, [
    { type: "initiated", sequence: 1 },
    { type: "expired", sequence: 2 },
  ]);
  assert.deepEqual(outbox, [{ event: "payment.expired", sequence: 2 }]);
});

test("money arriving after expiry is refund due: arrival decides", async () => {
  await initiate("exp-pay");
  await outliveLifetime();
  const sim = await call(owo, "POST", "/api/v2/sandbox/payments/exp-pay/simulate", { token, body: { outcome: "pay" } });
  assert.equal(sim.status, 200, sim.text);
  assert.equal(sim.json.data.payments.status, "EXPIRED");
  assert.equal(sim.json.data.payments.amountPaid, "0.00");
  assert.equal(sim.json.data.payments.amountToRefund, "1000.00");
  const { events } = await eventsOf("exp-pay");
  assert.deepEqual(
    events.map((e) => e.type),
    ["initiated", "expired", "refund_due"],
  );
});

test("a part payment does not extend the lifetime; PARTIALLY_PAID expires too, keeping what was paid", async () => {
  await initiate("exp-part");
  await call(owo, "POST", "/api/v2/sandbox/payments/exp-part/simulate", { token, body: { outcome: "pay", amount: "300.00" } });
  await outliveLifetime();
  const res = await call(owo, "GET", "/api/v3/payments/query/exp-part", { token });
  assert.equal(res.json.data.payments.status, "EXPIRED");
  assert.equal(res.json.data.payments.amountPaid, "300.00");
});

test("the sweeper expires overdue payments on its timer, once, and verify afterwards adds nothing", async () => {
  await initiate("exp-sweep-1", "USSD");
  await initiate("exp-sweep-2");
  await outliveLifetime();
  const stop = startSweeper(0.2);
  // The sweeper's own timer does the work (no read expires them first); wait for it, however slow the machine.
  await eventually(
    "the sweeper's timer to expire both",
    async () => (await Promise.all(["exp-sweep-1", "exp-sweep-2"].map(eventsOf))).every((e) => e.events.some((x) => x.type === "expired")),
    30_000,
  );
  await stop();
  // Further passes find nothing left to expire: run them here rather than wait for ticks that may or may not come.
  assert.equal(await expireOverdue(), 0, "a pass after the sweep expires nothing more");
  await call(owo, "GET", "/api/v3/payments/query/exp-sweep-1", { token });
  for (const ref of ["exp-sweep-1", "exp-sweep-2"]) {
    const { events, outbox } = await eventsOf(ref);
    assert.equal(events.filter((e) => e.type === "expired").length, 1, ref);
    assert.equal(outbox.filter((e) => e.event === "payment.expired").length, 1, ref);
  }
});
