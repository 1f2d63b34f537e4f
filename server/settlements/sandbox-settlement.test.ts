// The sandbox bank settles from its own books: fees by its schedule, refunds it paid back deducted, each credit once,
// every fault of API.md shaping the settlement as a real provider's would; Owo records it and matches its lines.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, asc, eq } from "drizzle-orm";
import { db } from "../../db/client";
import { ledgerBalances, reconciliationExceptions } from "../../db/schema";
import { verifyLedger } from "../books/verify";
import { SANDBOX_NOTICE_PATH } from "../providers/sandbox/bank";
import { SIGNATURE_HEADER, signNotice } from "../providers/sandbox/notice-signature";
import { settings } from "../settings";
import { call, createTestMerchant, tokenFor } from "../testing/harness";
import { settlementPostings } from "../testing/books";
import { newReference, startInitiating, transferBody, ussdBody, type InitiatingMerchant } from "../testing/initiation";
import { moveClock } from "../clock";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating({ OWO_SANDBOX_SETTLEMENT: "off" });
});
after(() => s.owo.stop());

type Line = { kind: string; paymentReference: string | null; grossAmount: string; feeAmount: string; netAmount: string; matched: boolean };
const kobo = (a: string) => Math.round(Number(a) * 100);

async function paid(body: Record<string, unknown>, ...amounts: (string | undefined)[]): Promise<string> {
  const init = await call(s.owo, "POST", "/api/v2/payments/initiates", { token: s.token, body });
  assert.equal(init.status, 200, init.text);
  for (const amount of amounts.length ? amounts : [undefined]) {
    const sim = await call(s.owo, "POST", `/api/v2/sandbox/payments/${String(body.paymentReference)}/simulate`, {
      token: s.token,
      body: amount === undefined ? { outcome: "pay" } : { outcome: "pay", amount },
    });
    assert.equal(sim.status, 200, sim.text);
  }
  return String(body.paymentReference);
}

const settle = (body: unknown, token = s.token) => call(s.owo, "POST", "/api/v2/sandbox/settlements", { token, body });

test("a clean settlement: every credit once, the bank's published fees, arithmetic that holds, lines matched", async () => {
  const ussd = await paid(ussdBody(s.merchant.publicKey, { amount: "1003.00" }));
  const big = await paid(transferBody(s.merchant.publicKey, { amount: "2500.00" }));
  const split = await paid(transferBody(s.merchant.publicKey, { amount: "3000.00" }), "1000.00", "2000.00");
  const res = await settle({});
  assert.equal(res.status, 200, res.text);
  const st = res.json.data.settlement;
  assert.equal(st.status, "paid");
  assert.equal(st.provider, "sandbox");
  assert.equal(st.providerId, "sandbox");
  assert.equal(st.grossAmount, "6503.00");
  // ₦15.05 + ₦137.50 + ₦15.00 + ₦30.00: each credit charged on its own.
  assert.equal(st.feeAmount, "197.55");
  assert.equal(st.netAmount, "6305.45");
  assert.equal(st.count, 4);
  assert.deepEqual(st.reconciliation, { status: "matched", exceptions: 0 }, "every line agrees with Owo's record");
  for (const ref of [ussd, big, split]) {
    const verified = await call(s.owo, "GET", `/api/v3/payments/query/${ref}`, { token: s.token });
    assert.equal(verified.json.data.payments.settlementId, st.settlementId, `${ref}: verify names the settlement that paid it out`);
  }
  assert.equal(kobo(st.grossAmount) - kobo(st.feeAmount) - kobo(st.refundAmount) - kobo(st.adjustmentAmount), kobo(st.netAmount));
  const lines = st.lines as Line[];
  assert.equal(
    lines.reduce((sum, l) => sum + kobo(l.netAmount), 0),
    kobo(st.netAmount),
  );
  assert.deepEqual(
    lines.map((l) => [l.kind, l.paymentReference, l.feeAmount, l.matched]),
    [
      ["payment", ussd, "15.05", true],
      ["payment", big, "137.50", true],
      ["payment", split, "15.00", true],
      ["payment", split, "30.00", true],
    ],
  );
  // One entry: the net leaves what the sandbox held for the merchant's bank.
  assert.deepEqual(await settlementPostings(st.settlementId), ["settlement bank 630545", "settlement provider:sandbox -630545"]);
  const [held] = await db()
    .select({ kobo: ledgerBalances.balanceKobo })
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.merchantId, s.merchant.merchantId), eq(ledgerBalances.account, "provider:sandbox")));
  assert.equal(held?.kobo, 0, "Owo's books and the bank's agree: the sandbox holds nothing unsettled");
  const again = await settle({});
  assert.equal(again.status, 409, "everything was paid out: nothing is settled twice");
  assert.equal(again.json.data.code, "S15");
  const one = await call(s.owo, "GET", `/api/v2/settlements/${st.settlementId}`, { token: s.token });
  assert.deepEqual(one.json.data.settlement, st);
  const list = await call(s.owo, "GET", "/api/v2/settlements?status=paid", { token: s.token });
  assert.ok(list.json.data.settlements.some((x: { settlementId: string }) => x.settlementId === st.settlementId));
  assert.equal((await call(s.owo, "GET", "/api/v2/settlements?status=failed", { token: s.token })).json.data.settlements.length, 0);
});

test("a refund the bank paid back is deducted once; one the customer's bank refused is not", async () => {
  const ref = await paid(transferBody(s.merchant.publicKey, { amount: "10000.00" }));
  const back = (reason: string, amount: string) =>
    call(s.owo, "POST", `/api/v2/payments/${ref}/refunds`, {
      token: s.token,
      body: { amount, reason, refundReference: newReference("rf") },
    });
  assert.equal((await back("damaged", "1000.00")).status, 200);
  assert.equal((await back("nope [decline]", "500.00")).status, 200);
  // Past the second the sandbox bank takes to pay a refund back (its SANDBOX_REFUND_MS): settled by then, not before.
  moveClock(1_200);
  const st = (await settle({})).json.data.settlement;
  assert.equal(st.grossAmount, "10000.00");
  assert.equal(st.feeAmount, "250.00");
  assert.equal(st.refundAmount, "1000.00");
  assert.equal(st.netAmount, "8750.00");
  // The refund's line names the payment it paid back, found by the refund the bank paid: matched, as its sale is.
  assert.deepEqual(
    (st.lines as Line[]).map((l) => [l.kind, l.paymentReference, l.netAmount, l.matched]),
    [
      ["payment", ref, "9750.00", true],
      ["refund", ref, "-1000.00", true],
    ],
  );
});

test("faults shape the settlement as a faulty provider's would, and an omitted credit settles later", async () => {
  const left = await paid(ussdBody(s.merchant.publicKey, { amount: "2000.00" }));
  const first = await paid(ussdBody(s.merchant.publicKey, { amount: "4000.00" }));
  const res = await settle({ omit: [left], shortBy: "10.00", unknownLine: true, feeBy: "5.00", grossBy: "1.00", adjustment: "50.00" });
  assert.equal(res.status, 200, res.text);
  const st = res.json.data.settlement;
  const lines = st.lines as Line[];
  assert.deepEqual(
    lines.map((l) => [l.kind, l.paymentReference, l.grossAmount, l.feeAmount, l.netAmount, l.matched]),
    [
      // ₦4,000.00 → ₦160.00 by the schedule; reported ₦1.00 higher and charged ₦5.00 more.
      ["payment", first, "4001.00", "165.00", "3836.00", true],
      ["unknown", null, "1000.00", "15.00", "985.00", false],
      ["adjustment", null, "-50.00", "0.00", "-50.00", false],
    ],
  );
  assert.equal(st.adjustmentAmount, "50.00");
  assert.deepEqual(st.reconciliation, { status: "exceptions", exceptions: 4 });
  const found = await db()
    .select()
    .from(reconciliationExceptions)
    .where(eq(reconciliationExceptions.settlementId, st.settlementId))
    .orderBy(asc(reconciliationExceptions.kind));
  assert.deepEqual(
    found.map((e) => [e.kind, e.paymentReference, e.expectedKobo, e.actualKobo]),
    [
      ["amount_mismatch", first, 400000, 400100],
      ["fee_mismatch", first, 16000, 16500],
      // Its own figures: 4001 + 1000 − 165 − 15 − 50 = 4771.00, paid 4761.00.
      ["net_mismatch", null, 477100, 476100],
      ["unknown_payment", null, null, 100000],
    ],
  );
  // Paid ₦10.00 less than its lines: the figures no longer add up, as a short payout's would not.
  assert.equal(st.netAmount, "4761.00");
  assert.equal(kobo(st.grossAmount) - kobo(st.feeAmount) - kobo(st.adjustmentAmount) - kobo(st.netAmount), 1000);
  // The stamp duty is the merchant's cost, the unknown line's money sits in suspense, and what a short payout lacks
  // stays with the provider: it took 476100 + 5000 − 98500 from what the sandbox held.
  assert.deepEqual(await settlementPostings(st.settlementId), [
    "settlement bank 476100",
    "settlement adjustments 5000",
    "settlement suspense -98500",
    "settlement provider:sandbox -382600",
  ]);
  const later = (await settle({})).json.data.settlement;
  assert.deepEqual(
    (later.lines as Line[]).map((l) => [l.paymentReference, l.grossAmount]),
    [[left, "2000.00"]],
  );
});

test("bad faults are 400 S5 naming the field; another merchant cannot see the settlement", async () => {
  await paid(ussdBody(s.merchant.publicKey, { amount: "1500.00" }));
  for (const [body, field] of [
    [{ shortBy: "ten" }, "shortBy"],
    [{ feeBy: "1.234" }, "feeBy"],
    [{ adjustment: "-5.00" }, "adjustment"],
    [{ omit: ["no-such-payment"] }, "omit"],
    [{ unknownLine: "yes" }, "unknownLine"],
    [[1], "body"],
  ] as const) {
    const res = await settle(body);
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.json.data.code, "S5");
    assert.ok(
      res.json.data.errors.some((e: { field: string }) => e.field === field),
      `${JSON.stringify(body)} names ${field}: ${res.text}`,
    );
  }
  const st = (await settle({})).json.data.settlement;
  const other = await createTestMerchant();
  const otherToken = await tokenFor(s.owo, other);
  assert.equal((await call(s.owo, "GET", `/api/v2/settlements/${st.settlementId}`, { token: otherToken })).status, 404);
  assert.equal((await settle({}, otherToken)).status, 409);
  // Every settlement above booked balanced, chained entries whose balances equal their sums.
  const verdict = await verifyLedger({ merchantId: s.merchant.merchantId });
  assert.equal(verdict.ok, true, JSON.stringify(verdict));
  const bad = await call(s.owo, "GET", "/api/v2/settlements?from=2026-13-01&status=lost", { token: s.token });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json.data.errors.map((e: { field: string }) => e.field).sort(), ["from", "status"]);
  // A limit is digits, a range runs forwards; a field the list does not take is ignored (API.md).
  for (const [query, field, message] of [
    ["limit=1e2", "limit", "must be a whole number from 1 to 200"],
    ["from=2026-11-20&to=2026-11-19", "from", "must not be later than to"],
  ]) {
    const refused = await call(s.owo, "GET", `/api/v2/settlements?${query}`, { token: s.token });
    assert.deepEqual([refused.status, refused.json.data.errors], [400, [{ field, message }]], query);
  }
  const all = await call(s.owo, "GET", "/api/v2/settlements", { token: s.token });
  const ignored = await call(s.owo, "GET", "/api/v2/settlements?_=1&currency=NGN", { token: s.token });
  assert.deepEqual([ignored.status, ignored.json.data], [200, all.json.data]);
});

test("a credit posted to the bank's notice door with its secret is the bank's own: it settles it as one it sent", async () => {
  const body = transferBody(s.merchant.publicKey, { amount: "1200.00" });
  const init = await call(s.owo, "POST", "/api/v2/payments/initiates", { token: s.token, body });
  assert.equal(init.status, 200, init.text);
  const notice = JSON.stringify({
    transactionId: `sbx_told_${newReference()}`,
    type: "credit",
    amount: "1200.00",
    accountNumber: init.json.data.payments.accountNumber,
    senderName: "Ngozi Eze",
  });
  const headers = { [SIGNATURE_HEADER]: signNotice(notice, settings().sandboxBankSecret) };
  const told = await call(s.owo, "POST", SANDBOX_NOTICE_PATH, { raw: notice, headers });
  assert.equal(told.status, 200, told.text);
  const res = await settle({});
  assert.equal(res.status, 200, res.text);
  // 1.5% of ₦1,200.00, the ₦100 waived under ₦2,500: the fee Owo charged the payment.
  assert.deepEqual(
    (res.json.data.settlement.lines as Line[]).map((l) => [l.kind, l.paymentReference, l.grossAmount, l.feeAmount, l.matched]),
    [["payment", body.paymentReference, "1200.00", "18.00", true]],
  );
});
