// Writers of one merchant's books meet at its chain head and balances (API.md "Ledger and balances"). On PostgreSQL
// they queue for them (db/client.ts `joinQueue`) instead of failing serialization and running again: many credits of
// one merchant at once all answer, none is retried, and the chain and balances come out whole.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { transferBody } from "../testing/initiation";
import { runCliBeside } from "../testing/processes";
import { retriedTransactions, rerunForQueues } from "../../db/postgres-store";
import { db } from "../../db/client";
import { ledgerBalances, ledgerEntries, payments, refunds } from "../../db/schema";
import { eq, inArray } from "drizzle-orm";
import { applyProviderRecord } from "../payments/provider-records";
import { settleRefund } from "../payments/refund-states";
import { settleSandboxNow } from "../settlements/sandbox";

let owo: Owo;
let m: TestMerchant;
let token: string;
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Busy Store");
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

/** Serialization retries so far in this process (none on SQLite, whose writers run one at a time). */
async function retries(): Promise<number> {
  return process.env.OWO_TEST_POSTGRES_URL ? retriedTransactions() : 0;
}

/** Transactions this process ran again from the start to hold a queue they learned of at a posting. */
async function reruns(): Promise<number> {
  return process.env.OWO_TEST_POSTGRES_URL ? rerunForQueues() : 0;
}

test("twenty-four credits of one merchant at once each book their entry, in one chain, none retried", async () => {
  const refs = Array.from({ length: 24 }, (_, k) => `busy-${Date.now()}-${k}`);
  for (const ref of refs) {
    const body = transferBody(m.publicKey, { paymentReference: ref, amount: "1000.00" });
    assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token, body })).status, 200);
  }
  const before = await retries();
  const paid = await Promise.all(
    refs.map((ref) => call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token, body: { outcome: "pay" } })),
  );
  assert.deepEqual(
    paid.map((r) => r.status),
    refs.map(() => 200),
    paid.map((r) => r.text).join("\n"),
  );
  assert.equal((await retries()) - before, 0, "writers of one merchant's books queue rather than fail and run again");

  const entries = await db().select().from(ledgerEntries).where(eq(ledgerEntries.merchantId, m.merchantId));
  assert.deepEqual(
    entries.map((e) => e.sequence).sort((a, b) => a - b),
    refs.map((_, k) => k + 1),
  );
  const balances = await db().select().from(ledgerBalances).where(eq(ledgerBalances.merchantId, m.merchantId));
  const sales = balances.find((b) => b.account === "sales");
  assert.equal(sales?.balanceKobo, -24 * 100_000);
  const verified = await runCliBeside(["ledger", "verify", "--json"], owo.databaseUrl);
  assert.equal(verified.status, 0, verified.stdout + verified.stderr);
});

test("live provider records and refunds paid back join the books at the posting: none runs twice, the chain stays whole", async () => {
  const other = await createTestMerchant("Live Busy Store");
  const otherToken = await tokenFor(owo, other);
  const refs = Array.from({ length: 12 }, (_, k) => `live-busy-${Date.now()}-${k}`);
  for (const ref of refs) {
    const body = transferBody(other.publicKey, { paymentReference: ref, amount: "1000.00" });
    assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token: otherToken, body })).status, 200);
  }
  const ids = (await db().select({ id: payments.id }).from(payments).where(eq(payments.merchantId, other.merchantId))).map((p) => p.id);
  assert.equal(ids.length, refs.length);
  const before = await reruns();
  const outcomes = await Promise.all(
    ids.map((id) =>
      applyProviderRecord(
        id,
        { state: "paid", amountKobo: 100_000, currency: "NGN", feeKobo: 1_500 },
        { provider: "queue-test", transactionId: `qt-${id}` },
      ),
    ),
  );
  assert.deepEqual(
    outcomes.map((o) => [o.applied, o.payment.status]),
    ids.map(() => [true, "SUCCESSFUL"]),
  );
  const asked = await Promise.all(
    refs.map((ref, k) =>
      call(owo, "POST", `/api/v2/payments/${ref}/refunds`, {
        token: otherToken,
        body: { amount: "400.00", reason: "one item back", refundReference: `qt-refund-${k}` },
      }),
    ),
  );
  assert.deepEqual(
    asked.map((r) => r.status),
    refs.map(() => 200),
    asked.map((r) => r.text).join("\n"),
  );
  const asking = await db().select({ id: refunds.id }).from(refunds).where(inArray(refunds.paymentId, ids));
  await Promise.all(asking.map((r) => settleRefund(r.id, "PROCESSED", null)));
  assert.equal(
    (await reruns()) - before,
    0,
    "a provider's record and a refund paid back take the queue at the posting, not by running again",
  );
  const entries = await db().select().from(ledgerEntries).where(eq(ledgerEntries.merchantId, other.merchantId));
  assert.deepEqual(
    entries.map((e) => e.sequence).sort((a, b) => a - b),
    [...ids, ...ids].map((_, k) => k + 1),
  );
  const verified = await runCliBeside(["ledger", "verify", "--json"], owo.databaseUrl);
  assert.equal(verified.status, 0, verified.stdout + verified.stderr);
});

test("a sandbox settlement holds the merchant's books from its start: it runs once and books its entry last in the chain", async () => {
  const before = await reruns();
  const settlement = await settleSandboxNow({ merchantId: m.merchantId, mode: "test" }, {});
  assert.equal(settlement.status, "paid");
  assert.equal((await reruns()) - before, 0, "the settlement declares the queue it joins instead of learning it and running again");
  const verified = await runCliBeside(["ledger", "verify", "--json"], owo.databaseUrl);
  assert.equal(verified.status, 0, verified.stdout + verified.stderr);
});
