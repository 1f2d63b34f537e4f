// A refund whose submission may have reached the provider unanswered (its answer lost, Owo stopped mid-send, the
// connection refused, the provider's list unreadable or unclear) is looked for at the provider before it is ever sent
// again: never two refunds for one, never one lost. Over real HTTP against the Paystack and Flutterwave doubles.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createServer, type AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { write, db } from "../../db/client";
import { payments, providerAccounts, refunds } from "../../db/schema";
import { liveRefundShops, REFUND_SHOP_KEYS as KEYS } from "../testing/live-refund-shops";
import { eventually } from "../testing/eventually";
import { ownReference } from "./own-references";

const { live, verify, paidLive, refund, fault, refundCallbacks, refundsOf, refundsAtDouble } = liveRefundShops();

for (const lost of ["processed-then-5xx", "processed-then-hang"] as const) {
  test(`Paystack takes the refund but its answer is lost (${lost}), webhooks dropped: Owo finds it in GET /refund instead of sending it again — one refund, PROCESSED`, async () => {
    const m = live.shops.paystack;
    const ref = await paidLive(m);
    await fault(m, { kind: "drop-webhook", times: 2 }); // refund.pending and refund.processed: only the lookup can tell
    await fault(m, { kind: lost, path: "/refund" });
    assert.equal((await refund(m, ref, { amount: "900.00", reason: "answer lost", refundReference: `lost-${ref}` })).status, 200);
    const [processed] = await refundCallbacks(m, ref, 1);
    assert.equal(processed?.event, "refund.processed");
    assert.deepEqual(
      (await refundsOf(m, ref)).map((r) => [r.status, r.amount]),
      [["PROCESSED", "900.00"]],
    );
    assert.deepEqual(
      (await refundsAtDouble(m, ref)).map((r) => r.amount),
      [90000],
      "exactly one refund at Paystack",
    );
    assert.equal((await verify(m, ref)).payments.amountRefunded, "900.00");
  });
}

test("Flutterwave takes the refund but answers 5xx: Owo finds it in GET /v3/refunds instead of sending it again — one refund, PROCESSED", async () => {
  const m = live.shops.flutterwave;
  const ref = await paidLive(m);
  const p = (await verify(m, ref)).payments as { linkingReference: string };
  const { transaction } = (await (
    await fetch(`${m.double.url}/_double/transactions/${ownReference(m.provider, `${p.linkingReference}-1`)}`)
  ).json()) as {
    transaction: { id: number };
  };
  await fault(m, { kind: "processed-then-5xx", path: `/v3/transactions/${transaction.id}/refund` });
  assert.equal((await refund(m, ref, { amount: "1100.00", reason: "answer lost", refundReference: "flw-lost-1" })).status, 200);
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.deepEqual(
    (await refundsOf(m, ref)).map((r) => [r.status, r.amount]),
    [["PROCESSED", "1100.00"]],
  );
  assert.deepEqual(
    (await refundsAtDouble(m, ref)).map((r) => r.amount_refunded),
    [1100],
    "exactly one refund at Flutterwave",
  );
});

test("Owo stopped while sending a refund, nothing of its answer recorded: the follower looks for it at Paystack before sending anything — one refund, PROCESSED", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  const [p] = await db()
    .select()
    .from(payments)
    .where(and(eq(payments.merchantId, m.merchantId), eq(payments.paymentReference, ref)));
  assert.ok(p?.issueReference);
  await fault(m, { kind: "drop-webhook", times: 2 }); // refund.pending and refund.processed: only the lookup can tell
  // What Owo's POST /refund (connector.ts) had taken to Paystack before Owo stopped…
  const reached = await fetch(`${m.double.url}/refund`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEYS.paystack.secretKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      transaction: p.issueReference,
      amount: 40000,
      currency: "NGN",
      customer_note: "stopped mid-send",
      merchant_note: `stopped mid-send (Owo refund stopped-1 for ${p.issueReference})`,
    }),
  });
  assert.equal(reached.status, 200, await reached.text());
  // …and the refund as Owo had reserved it, the outcome of its submission never recorded.
  const now = Date.now();
  await write((tx) =>
    tx.insert(refunds).values({
      id: `rfd_stopped${process.pid}`,
      paymentId: p.id,
      merchantId: m.merchantId,
      mode: "live",
      refundReference: "stopped-1",
      amountKobo: 40000,
      reason: "stopped mid-send",
      status: "PENDING",
      provider: "paystack",
      providerAccountId: m.providerId,
      providerRefundId: null,
      failureReason: null,
      unansweredAt: null,
      checks: 0,
      nextCheckAt: now,
      createdAt: now,
      updatedAt: now,
      settledAt: null,
    }),
  );
  await eventually("found at Paystack and PROCESSED", async () => (await refundsOf(m, ref))[0]?.status === "PROCESSED");
  assert.deepEqual(
    (await refundsAtDouble(m, ref)).map((r) => r.amount),
    [40000],
    "never sent again",
  );
});

test("Paystack's answer lost and its refund list written as its own samples are (no transaction_reference, no merchant_note): no verdict, so the refund is never sent again; once the list names them, it is found and PROCESSED", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  const asSample = (refundsListedAsSample: boolean) =>
    fetch(`${m.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ refundsListedAsSample }) });
  await fault(m, { kind: "drop-webhook", times: 2 });
  await fault(m, { kind: "processed-then-hang", path: "/refund" });
  assert.equal((await asSample(true)).status, 200);
  try {
    assert.equal((await refund(m, ref, { amount: "350.00", reason: "unnamed", refundReference: "unnamed-1" })).status, 200);
    const checks = async () => (await db().select().from(refunds).where(eq(refunds.refundReference, "unnamed-1")))[0]?.checks ?? 0;
    await eventually("looked for twice", async () => (await checks()) >= 2);
    assert.deepEqual(
      (await refundsOf(m, ref)).map((r) => [r.status, r.providerDidNotAnswer]),
      [["PENDING", true]],
    );
    assert.equal((await refundsAtDouble(m, ref)).length, 1, "never sent again");
  } finally {
    await asSample(false);
  }
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.equal((await refundsAtDouble(m, ref)).length, 1);
});

test("a refused connection never reached Paystack: the refund is sent again once the provider is back, and processed once", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  const pointAt = async (baseUrl: string) =>
    write(async (tx) => tx.update(providerAccounts).set({ baseUrl }).where(eq(providerAccounts.id, m.providerId)));
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  await pointAt(`http://127.0.0.1:${port}`);
  try {
    assert.equal((await refund(m, ref, { amount: "300.00", reason: "provider away", refundReference: "refused-1" })).status, 200);
    const [pending] = await refundsOf(m, ref);
    assert.deepEqual([pending?.status, pending?.providerDidNotAnswer], ["PENDING", false], "certainly never reached: not flagged");
  } finally {
    await pointAt(m.double.url);
  }
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  assert.deepEqual(
    (await refundsAtDouble(m, ref)).map((r) => r.amount),
    [30000],
    "sent again, refunded once",
  );
});

test("Paystack's answer lost and its refund list down too: the refund stays PENDING, flagged for the merchant, never sent again nor failed; once Paystack answers, it is found and PROCESSED", async () => {
  const m = live.shops.paystack;
  const ref = await paidLive(m);
  await fault(m, { kind: "drop-webhook", times: 2 });
  await fault(m, { kind: "processed-then-hang", path: "/refund" });
  assert.equal((await refund(m, ref, { amount: "250.00", reason: "lost and unlisted", refundReference: "unlisted-1" })).status, 200);
  await fault(m, { kind: "5xx", path: "/refund", times: 1000 }); // every lookup (GET /refund) fails from now on
  const checks = async () => (await db().select().from(refunds).where(eq(refunds.refundReference, "unlisted-1")))[0]?.checks ?? 0;
  await eventually("a lookup that got no answer", async () => (await checks()) >= 2);
  const [flagged] = await refundsOf(m, ref);
  assert.deepEqual(
    [flagged?.status, flagged?.providerDidNotAnswer],
    ["PENDING", true],
    "the payment page says: the provider did not answer; check at the provider",
  );
  assert.equal((await refundsAtDouble(m, ref)).length, 1, "never sent again");
  await fetch(`${m.double.url}/_double/faults`, { method: "DELETE" });
  const [processed] = await refundCallbacks(m, ref, 1);
  assert.equal(processed?.event, "refund.processed");
  const [settled] = await refundsOf(m, ref);
  assert.deepEqual([settled?.status, settled?.providerDidNotAnswer], ["PROCESSED", false]);
  assert.deepEqual(
    (await refundsAtDouble(m, ref)).map((r) => r.amount),
    [25000],
    "one refund at Paystack",
  );
});
