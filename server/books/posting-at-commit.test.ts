// On PostgreSQL a posting is written with its transaction's COMMIT, in one message (db/postgres-transaction.ts): the
// merchant's queue is taken there, so a transaction that posted and goes on working holds no other writer of the
// books; what the body reads after posting still includes the entry; a posting refused at commit undoes the whole
// transaction. On both databases the values reach the books exactly as given, quotes and backslashes included.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, eq } from "drizzle-orm";
import { db, dialect, write } from "../../db/client";
import { ledgerEntries, ledgerPostings, payments } from "../../db/schema";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { transferBody } from "../testing/initiation";
import { postEntry, type NewEntry } from "./post";
import { verifyLedger } from "./verify";

let owo: Owo;
let m: TestMerchant;
let payment: { id: number; paymentReference: string };
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Posting Store");
  const token = await tokenFor(owo, m);
  const paymentReference = `commit-${Date.now()}`;
  const body = transferBody(m.publicKey, { paymentReference, amount: "1000.00" });
  assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token, body })).status, 200);
  const [row] = await db().select({ id: payments.id }).from(payments).where(eq(payments.paymentReference, paymentReference));
  assert.ok(row);
  payment = { id: row.id, paymentReference };
});
after(() => owo.stop());

const onPostgres = () => dialect() === "postgres";

/** An adjustment of `kobo` against the payment: the provider held that much less for the merchant. */
function adjustment(kobo: number, refundReference: string | null = null): NewEntry {
  return {
    merchantId: m.merchantId,
    mode: "test",
    kind: "adjustment",
    reason: "stamp_duty",
    payment,
    refundReference,
    postings: [
      { account: "adjustments", amountKobo: kobo },
      { account: "provider:sandbox", amountKobo: -kobo },
    ],
    postedAt: Date.now(),
  };
}

const entriesWith = (refundReference: string) =>
  db()
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.merchantId, m.merchantId), eq(ledgerEntries.refundReference, refundReference)));

test("references with quotes, backslashes and SQL in them are booked exactly as given, and the chain verifies", async () => {
  const hostile = `it's \\'); delete from ledger_entries; -- \\\\ "quoted" ₦ ${Date.now()}`;
  await write((tx) => postEntry(tx, adjustment(5_000, hostile)), { isolation: "read committed" });
  const [entry] = await entriesWith(hostile);
  assert.equal(entry?.refundReference, hostile);
  assert.equal(entry?.paymentReference, payment.paymentReference);
  const lines = await db()
    .select()
    .from(ledgerPostings)
    .where(eq(ledgerPostings.entryId, entry?.id ?? ""));
  assert.deepEqual(lines.map((l) => [l.account, l.amountKobo]).sort(), [
    ["adjustments", 5_000],
    ["provider:sandbox", -5_000],
  ]);
  assert.equal((await verifyLedger({ merchantId: m.merchantId })).ok, true);
});

test(
  "a transaction that posted and goes on working holds no other writer of the merchant's books",
  { skip: !onPostgres() && "SQLite runs one writer at a time" },
  async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let posted = () => {};
    const hasPosted = new Promise<void>((resolve) => (posted = resolve));
    const first = write(
      async (tx) => {
        await postEntry(tx, adjustment(100, "first-writer"));
        posted();
        // The body's further work, after its posting: a call to a provider, a long computation.
        await held;
      },
      { isolation: "read committed" },
    );
    await hasPosted;
    const second = write((tx) => postEntry(tx, adjustment(200, "second-writer")), { isolation: "read committed" });
    const outcome = await Promise.race([
      second.then(() => "second committed"),
      new Promise((r) => setTimeout(() => r("second waited"), 3_000)),
    ]);
    release();
    await first;
    await second;
    assert.equal(outcome, "second committed", "the first transaction held the merchant's queue before its commit");
    const [a] = await entriesWith("first-writer");
    const [b] = await entriesWith("second-writer");
    assert.ok(a && b);
    assert.equal(a.sequence, b.sequence + 1, "the first writer's entry is placed in the chain when it commits, after the second's");
    assert.equal((await verifyLedger({ merchantId: m.merchantId })).ok, true);
  },
);

test("what the body reads after its posting includes the entry", async () => {
  const seen = await write(
    async (tx) => {
      await postEntry(tx, adjustment(300, "read-back"));
      return tx.select().from(ledgerEntries).where(eq(ledgerEntries.refundReference, "read-back"));
    },
    { isolation: "read committed" },
  );
  assert.equal(seen.length, 1);
  assert.equal(seen[0]?.kind, "adjustment");
});

/** The database's error code, wherever a layer wrapped it. */
function codeOf(err: unknown): string {
  for (let e = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return "";
}

test("a posting refused at commit undoes the whole transaction", async () => {
  const [before] = await db().select().from(payments).where(eq(payments.id, payment.id));
  const refused = write(
    async (tx) => {
      await tx.update(payments).set({ updatedAt: 1 }).where(eq(payments.id, payment.id));
      // No payment has this id: the entry's foreign key refuses it, at the posting.
      await postEntry(tx, { ...adjustment(400, "refused"), payment: { id: 2_000_000_000, paymentReference: "none" } });
    },
    { isolation: "read committed" },
  );
  await assert.rejects(refused, (err: unknown) => {
    assert.match(codeOf(err), onPostgres() ? /^23503$/ : /FOREIGNKEY/);
    return true;
  });
  const [after] = await db().select().from(payments).where(eq(payments.id, payment.id));
  assert.equal(after?.updatedAt, before?.updatedAt, "the payment's change before the posting was rolled back with it");
  assert.deepEqual(await entriesWith("refused"), []);
  assert.equal((await verifyLedger({ merchantId: m.merchantId })).ok, true);
});
