// Refund requests racing for the same money (API.md "Refunds"): over both doors at once, and split between two Owo
// processes on one database; the total refunded never exceeds what arrived.
import assert from "node:assert/strict";
import { test } from "node:test";
import { trpcFailure, transferBody } from "../testing/initiation";
import { eventually } from "../testing/eventually";
import { agreeing, refundShop } from "../testing/refund-shop";
import { databaseIn, spawnOwo } from "../testing/processes";

const shop = refundShop();
const { paid, refund } = shop;

test("20 racing refund requests over both doors asking together for more than arrived: the total never exceeds it", async () => {
  const ref = await paid(transferBody(shop.s.merchant.publicKey, { amount: "1500" }));
  const asks = Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0
      ? refund(ref, { reason: `race ${i}`, amount: "100.00" }).then((r) =>
          r.status === 200 ? "accepted" : `${r.status} ${r.json.data.code}`,
        )
      : shop.s.trpc.payments.refund.mutate({ paymentReference: ref, reason: `race ${i}`, amount: "100.00" }).then(
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
    const d = agreeing(await shop.s.trpc.payments.byReference.query({ paymentReference: ref }));
    return d.refunds.every((x) => x.status === "PROCESSED") && d;
  });
  const total = settled.refunds.reduce((sum, x) => sum + Math.round(Number(x.amount) * 100), 0);
  assert.equal(total, 1500_00);
  assert.equal(settled.payments.amountRefunded, "1500.00");
  assert.equal(settled.state.refundable, "0.00");
});

test("20 racing refund requests split between two Owo processes on one database: still never more than arrived", async () => {
  const second = await spawnOwo(databaseIn(shop.s.owo.dataDir));
  try {
    const ref = await paid(transferBody(shop.s.merchant.publicKey, { amount: "1000" }));
    const servers = [shop.s.owo.url, second.url];
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(`${servers[i % 2]}/api/v2/payments/${ref}/refunds`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${shop.s.token}` },
          body: JSON.stringify({ reason: `race ${i}`, amount: "75.00" }),
        });
        return res.status === 200 ? "accepted" : `${res.status} ${((await res.json()) as { data: { code: string } }).data.code}`;
      }),
    );
    // 13 × 75.00 = 975.00 fits in 1000.00; a 14th would not.
    assert.equal(outcomes.filter((o) => o === "accepted").length, 13, outcomes.join(","));
    assert.deepEqual([...new Set(outcomes.filter((o) => o !== "accepted"))], ["409 S15"]);
    const settled = await eventually("every refund processed", async () => {
      const d = agreeing(await shop.s.trpc.payments.byReference.query({ paymentReference: ref }));
      return d.refunds.every((x) => x.status === "PROCESSED") && d;
    });
    assert.equal(settled.payments.amountRefunded, "975.00");
    assert.equal(settled.state.refundable, "25.00");
  } finally {
    second.child.kill("SIGTERM");
    await second.exited;
  }
});
