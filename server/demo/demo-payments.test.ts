// The demo's sample payments: weeks of history in both channels and every status, made by the real services, no callbacks queued.
// dialect: sqlite only — it reads the database file through SQLite itself (rawSqlite).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { seedDemoPayments } from "./demo-payments";
import { rawSqlite as sqlite } from "../../db/client";
import { paymentOverview } from "../payments/overview";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

test("seedDemoPayments fills four weeks across both channels and every status, and queues nothing", async () => {
  const m = await createTestMerchant("Demo Store");
  const count = await seedDemoPayments(m.merchantId);
  assert.ok(count >= 200, `a few weeks of payments, got ${count}`);

  const rows = sqlite()
    .prepare("select status, payment_type as channel, count(*) as n from payments where merchant_id = ? group by 1, 2")
    .all(m.merchantId) as { status: string; channel: string; n: number }[];
  assert.equal(
    rows.reduce((sum, r) => sum + r.n, 0),
    count,
  );
  for (const status of ["PENDING", "PARTIALLY_PAID", "SUCCESSFUL", "FAILED", "EXPIRED"])
    assert.ok(
      rows.some((r) => r.status === status),
      `some ${status}`,
    );
  for (const channel of ["USSD", "TRANSFER"])
    assert.ok(
      rows.some((r) => r.channel === channel && r.status === "SUCCESSFUL"),
      `paid ${channel}`,
    );

  const days = sqlite()
    .prepare("select count(distinct (created_at + 3600000) / 86400000) as d from payments where merchant_id = ?")
    .get(m.merchantId) as { d: number };
  assert.ok(days.d >= 25, `spread over weeks, got ${days.d} days`);
  const events = sqlite()
    .prepare("select type, count(*) as n from payment_events e join payments p on p.id = e.payment_id where p.merchant_id = ? group by 1")
    .all(m.merchantId) as { type: string; n: number }[];
  for (const type of ["initiated", "successful", "partially_paid", "failed", "expired", "refund_due"])
    assert.ok(
      events.some((e) => e.type === type),
      `a ${type} event`,
    );
  assert.deepEqual(
    sqlite().prepare("select count(*) as n from outbox where merchant_id = ?").get(m.merchantId),
    { n: 0 },
    "no callback queued for history",
  );

  const { periods } = await paymentOverview({ merchantId: m.merchantId, mode: "test" });
  assert.ok(periods["30d"].totals.volumeKobo > 0);
  assert.ok(periods["7d"].chart.filter((p) => p.USSD + p.TRANSFER > 0).length >= 6, "the week's chart has bars");
});
