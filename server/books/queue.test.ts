// Writers of one merchant's books meet at its chain head and balances (API.md "Ledger and balances"). On PostgreSQL
// they queue for them (db/client.ts `joinQueue`) instead of failing serialization and running again: many credits of
// one merchant at once all answer, none is retried, and the chain and balances come out whole.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { transferBody } from "../testing/initiation";
import { runCliBeside } from "../testing/processes";

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
  return process.env.OWO_TEST_POSTGRES_URL ? (await import("../../db/postgres-store")).retriedTransactions() : 0;
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

  const { db } = await import("../../db/client");
  const { ledgerBalances, ledgerEntries } = await import("../../db/schema");
  const { eq } = await import("drizzle-orm");
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
