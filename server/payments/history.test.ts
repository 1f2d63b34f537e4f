// The payments list over real HTTP (tRPC, as backends and the dashboard call it): filters, search, keyset pages, timeline.
// dialect: sqlite only — it reads the database file through SQLite itself (rawSqlite).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import {
  newReference,
  sampleCustomers,
  sampleOrder,
  trpcClient,
  trpcFailure,
  trpcInput,
  transferBody,
  ussdBody,
} from "../testing/initiation";
import { userClient } from "../testing/sessions";
import { initiatePayment } from "./initiate";
import { parseInitiateRequest } from "./initiate-schema";
import { and } from "drizzle-orm";
import { db, rawSqlite as sqlite } from "../../db/client";
import { payments } from "../../db/schema";
import { filterWhere, newestFirst, olderThan } from "./filters";

let owo: Owo;
let m: TestMerchant;
let api: ReturnType<typeof trpcClient>;
const DAY = 86_400_000;
// Noon in Lagos five days ago: far enough back for date filters, and before any payment made "now".
const NOW = Math.floor((Date.now() + 3_600_000) / DAY) * DAY - 5 * DAY + 11 * 3_600_000;
/** The Lagos calendar date of a moment, as the date filters take it. */
const lagosDate = (ms: number) => new Date(ms + 3_600_000).toISOString().slice(0, 10);

before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("History Store");
  api = trpcClient(owo, await tokenFor(owo, m));
});
after(() => owo.stop());

/** A payment made by the initiation service at a chosen moment, so dates and order are known. */
async function paymentAt(at: number, body: Record<string, unknown>, merchant = m): Promise<string> {
  const request = parseInitiateRequest(trpcInput(body), { publicKey: false });
  await initiatePayment(request, { merchantId: merchant.merchantId, mode: "test", source: "dashboard", now: at });
  return request.paymentReference;
}

async function all(filters: Record<string, string> = {}): Promise<string[]> {
  const refs: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: { paymentReference: string }[]; nextCursor: string | null } = await api.payments.list.query({
      ...filters,
      cursor,
      limit: 200,
    });
    refs.push(...page.items.map((p) => p.paymentReference));
    cursor = page.nextCursor;
  } while (cursor);
  return refs;
}

test("every filter narrows the list to exactly the payments it names, newest first", async () => {
  const filterStore = await createTestMerchant("Filter Store");
  const client = trpcClient(owo, await tokenFor(owo, filterStore));
  const make = (at: number, body: Record<string, unknown>) => paymentAt(at, body, filterStore);
  const ussdSmall = await make(NOW - 3 * DAY, ussdBody("", { amount: "150" }));
  const transferBig = await make(NOW - 2 * DAY, transferBody("", { amount: "250000" }));
  const ussdMid = await make(NOW - DAY, ussdBody("", { amount: "5000.50" }));
  const paid = await make(Date.now(), transferBody("", { amount: "2000" }));
  // Settled by the sandbox bank over HTTP, like any payment.
  const token = await tokenFor(owo, filterStore);
  const sim = await call(owo, "POST", `/api/v2/sandbox/payments/${paid}/simulate`, { token, body: { outcome: "pay" } });
  assert.equal(sim.status, 200, sim.text);
  const viaRest = (await call(owo, "POST", "/api/v2/payments/initiates", { token, body: ussdBody(filterStore.publicKey) })).json.data
    .payments.paymentReference;

  const list = async (filters: Record<string, string>) => (await client.payments.list.query(filters)).items.map((p) => p.paymentReference);
  assert.deepEqual(await list({}), [viaRest, paid, ussdMid, transferBig, ussdSmall]);
  assert.deepEqual(await list({ channel: "USSD" }), [viaRest, ussdMid, ussdSmall]);
  assert.deepEqual(await list({ channel: "TRANSFER" }), [paid, transferBig]);
  assert.deepEqual(await list({ status: "SUCCESSFUL" }), [paid]);
  assert.deepEqual(await list({ source: "rest" }), [viaRest]);
  assert.deepEqual(await list({ minAmount: "1500", maxAmount: "5000.50" }), [viaRest, paid, ussdMid]);
  assert.deepEqual(await list({ minAmount: "5000.51" }), [transferBig]);
  // Lagos days, both ends of the range included.
  assert.deepEqual(await list({ from: lagosDate(NOW - 3 * DAY), to: lagosDate(NOW - 2 * DAY) }), [transferBig, ussdSmall]);
  assert.deepEqual(await list({ from: lagosDate(NOW - DAY), to: lagosDate(NOW - DAY) }), [ussdMid]);
  assert.deepEqual(await list({ channel: "USSD", to: lagosDate(NOW - DAY), minAmount: "1000" }), [ussdMid]);

  const item = (await client.payments.list.query({ status: "SUCCESSFUL" })).items[0];
  assert.equal(item?.amount, "2000.00");
  assert.equal(item?.amountPaid, "2000.00");
  assert.equal(item?.customerEmail, sampleOrder.email);
  assert.equal(item?.paymentType, "TRANSFER");
  assert.equal(item?.source, "dashboard");
});

test("search matches the exact value or its beginning in references, e-mail and phone, never the middle", async () => {
  const store = await createTestMerchant("Search Store");
  const client = trpcClient(owo, await tokenFor(owo, store));
  const a = await paymentAt(
    NOW,
    ussdBody("", { paymentReference: "inv-2026-0042", email: "Chioma.Eze@Example.com", mobileNumber: "08031112222" }),
    store,
  );
  const b = await paymentAt(
    NOW + 1,
    transferBody("", { paymentReference: "inv-2026-0043", email: "tolu@example.com", mobileNumber: "07035556666" }),
    store,
  );
  await paymentAt(NOW + 2, transferBody("", { paymentReference: "order-9", email: "zed@example.com", mobileNumber: "09099990000" }), store);
  const search = async (term: string) => (await client.payments.list.query({ search: term })).items.map((p) => p.paymentReference);

  assert.deepEqual(await search("inv-2026-0042"), [a]);
  assert.deepEqual(await search("inv-2026"), [b, a]);
  assert.deepEqual(await search("tolu@"), [b]);
  assert.deepEqual(await search("0803111"), [a]);
  assert.deepEqual(await search("Chioma.Eze@Example.com"), [a], "stored as typed");
  assert.deepEqual(await search("2026-0042"), [], "the middle of a reference is not a prefix");
  assert.deepEqual(await search("example.com"), []);
  assert.deepEqual(await search("  inv-2026-0043  "), [b], "surrounding spaces are trimmed");
  const linking = (await client.payments.byReference.query({ paymentReference: b })).payments.linkingReference;
  assert.deepEqual(await search(linking), [b]);
  assert.deepEqual(await search(linking.slice(0, 12)).then((r) => r.includes(b)), true);
  // Another merchant's payments never match, even by their linkingReference.
  assert.deepEqual(await all({ search: linking }), []);
});

test("keyset pages walk every payment exactly once, also across equal times and rows added meanwhile", async () => {
  const store = await createTestMerchant("Paging Store");
  const client = trpcClient(owo, await tokenFor(owo, store));
  const made: string[] = [];
  // Three payments per millisecond: the id breaks the ties.
  for (let i = 0; i < 75; i++)
    made.push(await paymentAt(NOW + Math.floor(i / 3), transferBody("", { paymentReference: newReference("page") }), store));
  const seen: string[] = [];
  let page = await client.payments.list.query({ limit: 20 });
  seen.push(...page.items.map((p) => p.paymentReference));
  // A payment arriving between pages lands on the first page, not in the middle of the walk.
  await paymentAt(NOW + 1000, transferBody("", { paymentReference: newReference("late") }), store);
  while (page.nextCursor) {
    page = await client.payments.list.query({ limit: 20, cursor: page.nextCursor });
    assert.ok(page.items.length <= 20);
    seen.push(...page.items.map((p) => p.paymentReference));
  }
  assert.deepEqual(seen, [...made].reverse());
  assert.equal((await client.payments.list.query({ limit: 75 })).nextCursor !== null, true, "76 payments make a second page of 75");
});

test("bad filters are refused naming the field; other merchants' payments are not found", async () => {
  const bad = await trpcFailure(api.payments.list.query({ minAmount: "ten naira", from: "2026-02-30" }));
  assert.equal(bad.code, "BAD_REQUEST");
  assert.deepEqual(bad.errors.map((e) => e.field).sort(), ["from", "minAmount"]);
  assert.equal((await trpcFailure(api.payments.list.query({ cursor: "page-2" }))).errors[0]?.field, "cursor");
  assert.equal((await trpcFailure(api.payments.list.query({ status: "PAID" as "PENDING" }))).errors[0]?.field, "status");

  const other = await createTestMerchant("Other Store");
  const theirs = await paymentAt(NOW, ussdBody(""), other);
  assert.equal((await trpcFailure(api.payments.byReference.query({ paymentReference: theirs }))).code, "NOT_FOUND");
  assert.ok(!(await all()).includes(theirs));
  assert.equal((await trpcFailure(trpcClient(owo, "owo_test_forged").payments.list.query({}))).code, "UNAUTHORIZED");
});

test("a payment's page shows what was issued and its timeline as the bank moved it", async () => {
  const token = await tokenFor(owo, m);
  const res = await call(owo, "POST", "/api/v2/payments/initiates", { token, body: transferBody(m.publicKey, { amount: "1000" }) });
  const ref = res.json.data.payments.paymentReference as string;
  await call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token, body: { outcome: "pay", amount: "400.00" } });
  await call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token, body: { outcome: "pay" } });

  // The dashboard reads the same procedure with its session.
  const viewer = await userClient(owo, m.userId);
  const detail = await viewer.payments.byReference.query({ paymentReference: ref });
  assert.equal(detail.payments.status, "SUCCESSFUL");
  assert.equal(detail.payments.amountPaid, "1000.00");
  assert.deepEqual(detail.customers, sampleCustomers);
  assert.equal(detail.issued?.paymentType, "TRANSFER");
  assert.equal(detail.issued?.paymentType === "TRANSFER" && detail.issued?.accountNumber, res.json.data.payments.accountNumber);
  assert.equal(detail.checkoutUrl, res.json.data.payments.checkoutUrl);
  assert.deepEqual(
    detail.timeline.map((e) => [e.sequence, e.type, e.status, e.amount]),
    [
      [1, "initiated", "PENDING", "1000.00"],
      [2, "partially_paid", "PARTIALLY_PAID", "400.00"],
      [3, "successful", "SUCCESSFUL", "600.00"],
    ],
  );

  const ussd = await call(owo, "POST", "/api/v2/payments/initiates", { token, body: ussdBody(m.publicKey, { bankCode: "058" }) });
  const dial = await api.payments.byReference.query({ paymentReference: ussd.json.data.payments.paymentReference });
  assert.equal(dial.issued?.paymentType, "USSD");
  if (dial.issued?.paymentType === "USSD") {
    assert.equal(dial.issued?.bankName, "Guaranty Trust Bank");
    assert.equal(dial.issued?.dialCode, ussd.json.data.payments.ussdDailCode);
    assert.equal(dial.issued?.telLink, `tel:${dial.issued?.dialCode.replace("#", "%23")}`);
  }
});

test("pages are read in index order, never sorted or skipped through, whatever the filters", async () => {
  for (const filters of [
    {},
    { status: "FAILED" as const },
    { channel: "USSD" as const, minAmount: "100" },
    { from: "2026-01-01", to: "2026-12-31" },
  ]) {
    const page = db()
      .select()
      .from(payments)
      .where(and(await filterWhere({ merchantId: m.merchantId, mode: "test" }, filters), olderThan({ createdAt: NOW, id: 1e9 })))
      .orderBy(...newestFirst())
      .limit(51)
      .toSQL();
    const plan = (
      sqlite()
        .prepare(`explain query plan ${page.sql}`)
        .all(...page.params) as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(" | ");
    assert.match(plan, /USING INDEX payments_list \(merchant_id=\? AND mode=\? AND created_at[<>]/, `${JSON.stringify(filters)}: ${plan}`);
    assert.doesNotMatch(plan, /TEMP B-TREE/, `${JSON.stringify(filters)} must not sort: ${plan}`);
  }
});
