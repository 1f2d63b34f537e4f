// The books as a merchant's money moves them (API.md "Ledger and balances", "Fees"): part payments, late money and a
// refund driven over HTTP through the sandbox bank, each booked with its fee; the database refusing to edit an entry;
// the balances and entries as REST and tRPC answer them; a payment from before the books booked at start-up. `owo
// ledger verify` on tampered copies: ./verify.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { transferBody, trpcClient } from "../testing/initiation";
import { runCliBeside } from "../testing/processes";
import { eventually } from "../testing/eventually";
import { db, write } from "../../db/client";
import { bankNotices, ledgerBalances, ledgerEntries, ledgerPostings, payments } from "../../db/schema";
import { eq, asc } from "drizzle-orm";
import { openBooks } from "./opening";
import { rerunForQueues } from "../../db/postgres-store";

let owo: Owo;
let m: TestMerchant;
let token: string;
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Books Store");
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

const onSqlite = () => !process.env.OWO_TEST_POSTGRES_URL;

async function balances(): Promise<Record<string, number>> {
  const rows = await db().select().from(ledgerBalances);
  return Object.fromEntries(rows.filter((r) => r.merchantId === m.merchantId).map((r) => [r.account, r.balanceKobo]));
}

async function entriesOf(paymentReference: string) {
  const entries = await db()
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.paymentReference, paymentReference))
    .orderBy(asc(ledgerEntries.sequence));
  return Promise.all(
    entries.map(async (e) => ({
      kind: e.kind,
      postings: (await db().select().from(ledgerPostings).where(eq(ledgerPostings.entryId, e.id)).orderBy(asc(ledgerPostings.line))).map(
        (p) => [p.account, p.amountKobo],
      ),
    })),
  );
}

const pay = (ref: string, amount: string) =>
  call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token, body: { outcome: "pay", amount } });

let ref = "";
test("part payments, late money and a refund each book one balanced entry with the sandbox's fee", async () => {
  ref = `books-${Date.now()}`;
  const body = transferBody(m.publicKey, { paymentReference: ref, amount: "1500.00" });
  assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token, body })).status, 200);
  assert.deepEqual(await entriesOf(ref), [], "initiation posts nothing");
  assert.equal((await pay(ref, "1000.00")).status, 200);
  assert.equal((await pay(ref, "500.00")).status, 200);
  assert.equal((await pay(ref, "300.00")).status, 200, "money after the payment closed");
  const sandbox = "provider:sandbox";
  assert.deepEqual(await entriesOf(ref), [
    {
      kind: "credit",
      postings: [
        [sandbox, 100_000],
        ["sales", -100_000],
        ["fees", 1_500],
        [sandbox, -1_500],
      ],
    },
    {
      kind: "credit",
      postings: [
        [sandbox, 50_000],
        ["sales", -50_000],
        ["fees", 750],
        [sandbox, -750],
      ],
    },
    {
      kind: "late_credit",
      postings: [
        [sandbox, 30_000],
        ["refund_due", -30_000],
        ["fees", 450],
        [sandbox, -450],
      ],
    },
  ]);

  const verified = (await call(owo, "GET", `/api/v3/payments/query/${ref}`, { token })).json.data.payments;
  assert.equal(verified.feeAmount, "27.00", "₦15.00 + ₦7.50 + ₦4.50: each credit charged on its own");
  assert.equal(verified.settlementId, null);

  const refunded = await call(owo, "POST", `/api/v2/payments/${ref}/refunds`, { token, body: { amount: "500.00", reason: "returned" } });
  assert.equal(refunded.status, 200, refunded.text);
  await eventually("the refund processed", async () => {
    const v = await call(owo, "GET", `/api/v3/payments/query/${ref}`, { token });
    return v.json.data.payments.amountRefunded === "500.00";
  });
  const refundEntry = (await entriesOf(ref))[3];
  assert.deepEqual(refundEntry, {
    kind: "refund",
    postings: [
      ["refund_due", 30_000],
      ["refunds", 20_000],
      [sandbox, -50_000],
    ],
  });
  assert.deepEqual(await balances(), {
    [sandbox]: 180_000 - 2_700 - 50_000,
    sales: -150_000,
    refund_due: 0,
    fees: 2_700,
    refunds: 20_000,
  });
});

test("the database refuses to change or delete an entry or a posting", async () => {
  // Drizzle wraps PostgreSQL's error in its own "Failed query"; the trigger's words are in its cause.
  const refused = (err: unknown) => /never (changed|deleted)/.test(`${String(err)} ${String((err as { cause?: unknown }).cause)}`);
  await assert.rejects(() => write((tx) => tx.update(ledgerEntries).set({ kind: "refund" })), refused);
  await assert.rejects(() => write((tx) => tx.delete(ledgerEntries)), refused);
  await assert.rejects(() => write((tx) => tx.update(ledgerPostings).set({ amountKobo: 1 })), refused);
  await assert.rejects(() => write((tx) => tx.delete(ledgerPostings)), refused);
  assert.equal((await entriesOf(ref)).length, 4);
});

test("GET /api/v2/balances and /api/v2/ledger/entries answer the same books as API.md shows them", async () => {
  const b = await call(owo, "GET", "/api/v2/balances", { token });
  assert.equal(b.status, 200, b.text);
  const data = b.json.data;
  assert.equal(data.ledgerHead.sequence, 4);
  assert.match(data.ledgerHead.hash, /^[0-9a-f]{64}$/);
  assert.deepEqual(data.balances, {
    providers: [{ providerId: "sandbox", provider: "sandbox", unsettled: "1273.00", wallet: "0.00" }],
    bank: "0.00",
    sales: "1500.00",
    fees: "27.00",
    refunds: "200.00",
    refundDue: "0.00",
    adjustments: "0.00",
    external: "0.00",
    suspense: "0.00",
  });

  const first = await call(owo, "GET", "/api/v2/ledger/entries?limit=3", { token });
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(
    first.json.data.entries.map((e: { sequence: number; kind: string }) => [e.sequence, e.kind]),
    [
      [4, "refund"],
      [3, "late_credit"],
      [2, "credit"],
    ],
  );
  assert.equal(first.json.data.entries[0].hash, data.ledgerHead.hash, "the newest entry is the published head");
  assert.deepEqual(first.json.data.entries[2].postings, [
    { account: "provider:sandbox", amount: "500.00" },
    { account: "sales", amount: "-500.00" },
    { account: "fees", amount: "7.50" },
    { account: "provider:sandbox", amount: "-7.50" },
  ]);
  const rest = await call(owo, "GET", `/api/v2/ledger/entries?limit=3&cursor=${first.json.data.nextCursor}`, { token });
  assert.deepEqual(
    rest.json.data.entries.map((e: { sequence: number }) => e.sequence),
    [1],
  );
  assert.equal(rest.json.data.nextCursor, null);

  const bad = await call(owo, "GET", "/api/v2/ledger/entries?limit=501&from=yesterday", { token });
  assert.equal(bad.status, 400, bad.text);
  assert.deepEqual(bad.json.data.errors.map((e: { field: string }) => e.field).sort(), ["from", "limit"]);
  // A limit is digits, a range runs forwards, and each refusal says what was expected; unknown fields are ignored.
  for (const [query, field, message] of [
    ["limit=1e2", "limit", "must be a whole number from 1 to 500"],
    ["limit=0x10", "limit", "must be a whole number from 1 to 500"],
    ["from=2026-11-20&to=2026-11-19", "from", "must not be later than to"],
    ["from=2026-11-40&to=2026-11-01", "from", "must be a day as YYYY-MM-DD"],
    ["paymentReference=", "paymentReference", "must be a paymentReference, 1 to 64 characters"],
  ]) {
    const refused = await call(owo, "GET", `/api/v2/ledger/entries?${query}`, { token });
    assert.equal(refused.status, 400, query);
    assert.deepEqual(refused.json.data.errors, [{ field, message }], query);
  }
  const ignored = await call(owo, "GET", "/api/v2/ledger/entries?limit=3&_=1&foo=bar", { token });
  assert.equal(ignored.status, 200, ignored.text);
  assert.deepEqual(ignored.json.data.entries, first.json.data.entries);
  const other = await createTestMerchant("Other Books");
  const otherToken = await tokenFor(owo, other);
  assert.deepEqual((await call(owo, "GET", "/api/v2/ledger/entries", { token: otherToken })).json.data.entries, [], "scoped to the caller");
  // A merchant with no books yet still has the sandbox's line (API.md), at zero, and the empty chain's head.
  const fresh = (await call(owo, "GET", "/api/v2/balances", { token: otherToken })).json.data;
  assert.deepEqual(fresh.balances.providers, [{ providerId: "sandbox", provider: "sandbox", unsettled: "0.00", wallet: "0.00" }]);
  assert.deepEqual(fresh.ledgerHead, { sequence: 0, hash: "0".repeat(64) });
});

test("a payment from before the books existed is booked once at start-up, its notices' fees and refunds included", async () => {
  const [booked] = await db().select().from(payments).where(eq(payments.paymentReference, ref));
  assert.ok(booked);
  // The same payment as an older Owo left it: its row and its notices, no entry, no fee kept.
  const old = `old-${Date.now()}`;
  const { id: _id, ...row } = booked;
  void _id;
  await write(async (tx) => {
    const [inserted] = await tx
      .insert(payments)
      .values({
        ...row,
        paymentReference: old,
        linkingReference: `OWO${Date.now()}`,
        accountNumber: null,
        feeKobo: 0,
        amountRefundedKobo: 0,
      })
      .returning({ id: payments.id });
    assert.ok(inserted);
    const notices = await tx.select().from(bankNotices).where(eq(bankNotices.paymentId, booked.id));
    for (const { id: _n, ...n } of notices) {
      void _n;
      await tx.insert(bankNotices).values({ ...n, paymentId: inserted.id, providerTransactionId: `${n.providerTransactionId}-old` });
    }
  });
  const reruns = async () => (onSqlite() ? 0 : rerunForQueues());
  const before = await reruns();
  assert.equal(await openBooks(), 1);
  assert.equal((await reruns()) - before, 0, "the merchant's books are declared up front: the payment's booking runs once");
  assert.equal(await openBooks(), 0, "a second start books nothing");
  assert.deepEqual(
    (await entriesOf(old)).map((e) => e.postings),
    [
      [
        ["provider:sandbox", 150_000],
        ["sales", -150_000],
        ["fees", 2_250],
        ["provider:sandbox", -2_250],
      ],
      [
        ["provider:sandbox", 30_000],
        ["refund_due", -30_000],
        ["fees", 450],
        ["provider:sandbox", -450],
      ],
    ],
  );
  assert.equal((await call(owo, "GET", `/api/v3/payments/query/${old}`, { token })).json.data.payments.feeAmount, "27.00");
  const ok = await runCliBeside(["ledger", "verify", "--json"], owo.databaseUrl);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
});

test("GET /api/v2/fees/quote answers the sandbox's fee and what the merchant keeps; bad input names its field", async () => {
  const q = await call(owo, "GET", "/api/v2/fees/quote?amount=10000.00&paymentType=USSD&bankCode=058", { token });
  assert.equal(q.status, 200, q.text);
  assert.deepEqual(q.json.data.quotes, [{ provider: "sandbox", providerId: "sandbox", fee: "250.00", net: "9750.00" }]);
  const bad = await call(owo, "GET", "/api/v2/fees/quote?amount=10.001&paymentType=CARD", { token });
  assert.equal(bad.status, 400, bad.text);
  assert.deepEqual(bad.json.data.errors.map((e: { field: string }) => e.field).sort(), ["amount", "paymentType"]);
});

test("tRPC books.balances, books.entries and books.quote answer what REST answers", async () => {
  const trpc = trpcClient(owo, token);
  const rest = (await call(owo, "GET", "/api/v2/balances", { token })).json.data;
  const viaTrpc = await trpc.books.balances.query();
  assert.deepEqual({ ...viaTrpc, asOf: rest.asOf }, { asOf: rest.asOf, ledgerHead: rest.ledgerHead, balances: rest.balances });
  const entries = (await call(owo, "GET", "/api/v2/ledger/entries?limit=2", { token })).json.data;
  assert.deepEqual(await trpc.books.entries.query({ limit: 2 }), { entries: entries.entries, nextCursor: entries.nextCursor });
  assert.deepEqual((await trpc.books.quote.query({ amount: "1500.00", paymentType: "TRANSFER" })).quotes, [
    { provider: "sandbox", providerId: "sandbox", fee: "22.50", net: "1477.50" },
  ]);
});
