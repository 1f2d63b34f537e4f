// Bank statements against settlements: a clean payout confirmed by its line, a line naming a provider that matches
// nothing flagged, other income and debits kept, the same statement twice changing nothing, a paid settlement missing
// from a statement covering its day flagged until a later statement shows it, expected days made paid by one line.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, eq } from "drizzle-orm";
import { db, write } from "../../db/client";
import { bankStatementLines, ledgerEntries, outbox, reconciliationExceptions, settlements } from "../../db/schema";
import { clock } from "../clock";
import { recordSettlement } from "../settlements/record";
import { call } from "../testing/harness";
import { paidInSandbox, startInitiating, transferBody, type InitiatingMerchant } from "../testing/initiation";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating();
});
after(() => s.owo.stop());

const ACCOUNT = "0123456789";
const lagosDay = (ms = clock.now()) => new Date(ms + 3_600_000).toISOString().slice(0, 10);
type Line = { date: string; amount: string; reference: string; narration: string };
const statement = (lines: Line[]) =>
  call(s.owo, "POST", "/api/v2/bank-statements", { token: s.token, body: { accountNumber: ACCOUNT, lines } });

async function settledOne(amount: string): Promise<{ settlementId: string; netAmount: string }> {
  await paidInSandbox(s, transferBody(s.merchant.publicKey, { amount }));
  const res = await call(s.owo, "POST", "/api/v2/sandbox/settlements", { token: s.token, body: {} });
  assert.equal(res.status, 200, res.text);
  return res.json.data.settlement;
}

async function openOf(kind: string) {
  return db()
    .select()
    .from(reconciliationExceptions)
    .where(
      and(eq(reconciliationExceptions.merchantId, s.merchant.merchantId), eq(reconciliationExceptions.kind, kind as "bank_unmatched")),
    );
}

test("a statement confirms the clean settlement, flags the provider line it cannot match, and twice changes nothing", async () => {
  const clean = await settledOne("2500.00");
  assert.equal(clean.netAmount, "2362.50");
  const today = lagosDay();
  const lines = [
    { date: today, amount: "2362.50", reference: "NIP/TRF/77120", narration: "OWO SANDBOX SETTLEMENT" },
    { date: today, amount: "999.00", reference: "NIP/TRF/77121", narration: "SANDBOX SETTLEMENT" },
    { date: today, amount: "5000.00", reference: "POS/CR/8812", narration: "SHOP TAKINGS" },
    { date: today, amount: "-150.00", reference: "SMS/ALERT", narration: "SMS ALERT CHARGES" },
  ];
  const first = await statement(lines);
  assert.equal(first.status, 200, first.text);
  const answered = first.json.data.lines as { settlementId: string | null; match: string; duplicate: boolean }[];
  assert.deepEqual(
    answered.map((l) => [l.settlementId, l.match, l.duplicate]),
    [
      [clean.settlementId, "matched", false],
      [null, "unmatched", false],
      [null, "other_income", false],
      [null, "debit", false],
    ],
  );
  const settlement = (await call(s.owo, "GET", `/api/v2/settlements/${clean.settlementId}`, { token: s.token })).json.data.settlement;
  assert.equal(settlement.bankReference, "NIP/TRF/77120");
  const flagged = await openOf("bank_unmatched");
  assert.deepEqual(
    flagged.map((e) => [e.actualKobo, e.resolvedAt]),
    [[99_900, null]],
    "only the sandbox line for no settlement: the shop's takings are other income",
  );
  const events = await db().select().from(outbox).where(eq(outbox.merchantId, s.merchant.merchantId));
  const again = await statement(lines);
  assert.equal(again.status, 200);
  assert.deepEqual(
    again.json.data.lines.map((l: { settlementId: string | null; duplicate: boolean }) => [l.settlementId, l.duplicate]),
    answered.map((l) => [l.settlementId, true]),
  );
  const stored = await db().select().from(bankStatementLines).where(eq(bankStatementLines.merchantId, s.merchant.merchantId));
  assert.equal(stored.length, 4, "each line kept once");
  assert.equal((await openOf("bank_unmatched")).length, 1);
  assert.equal(
    (await db().select().from(outbox).where(eq(outbox.merchantId, s.merchant.merchantId))).length,
    events.length,
    "no new event",
  );
});

test("a paid settlement missing from a statement of its day is flagged, then closed when a later statement shows it", async () => {
  const missing = await settledOne("1000.00");
  const today = lagosDay();
  const yesterday = lagosDay(clock.now() - 86_400_000);
  const res = await statement([
    { date: yesterday, amount: "-20.00", reference: "FEE", narration: "ACCOUNT MAINTENANCE" },
    { date: today, amount: "300.00", reference: "TRF/12", narration: "REFUND FROM SUPPLIER" },
  ]);
  assert.equal(res.status, 200, res.text);
  const [flag] = (await openOf("bank_unmatched")).filter((e) => e.settlementId === missing.settlementId);
  assert.ok(flag, "the statement covers the settlement's day and no line shows it");
  assert.equal(flag.expectedKobo, 98_500);
  assert.equal(flag.resolvedAt, null);
  // The payout's own summary says so while the flag is open, and stops once Owo closes it.
  const reconciliation = async () =>
    (await call(s.owo, "GET", `/api/v2/settlements/${missing.settlementId}`, { token: s.token })).json.data.settlement.reconciliation;
  assert.deepEqual(await reconciliation(), { status: "exceptions", exceptions: 1 });
  const later = await statement([
    { date: today, amount: "985.00", reference: "NIP/TRF/90001", narration: `SANDBOX ${missing.settlementId}` },
  ]);
  assert.equal(later.json.data.lines[0].settlementId, missing.settlementId);
  const [closed] = await db().select().from(reconciliationExceptions).where(eq(reconciliationExceptions.id, flag.id));
  assert.ok(closed?.resolvedAt, "Owo closed it itself");
  assert.match(closed?.note ?? "", /Found on the bank statement: .* 985\.00 NIP\/TRF\/90001/);
  assert.deepEqual(await reconciliation(), { status: "matched", exceptions: 0 });
});

test("one line confirms two expected days of one provider: both become paid, booked and announced", async () => {
  const now = clock.now();
  const source = { merchantId: s.merchant.merchantId, mode: "test" as const, provider: "seerbit" as const, providerAccountId: null };
  const expected = (id: string, netKobo: number, day: number) => ({
    providerSettlementId: id,
    status: "expected" as const,
    destination: "bank" as const,
    currency: "NGN",
    grossKobo: netKobo,
    feeKobo: 0,
    refundKobo: 0,
    adjustmentKobo: 0,
    netKobo,
    settledAt: now - day * 86_400_000,
    lines: [],
  });
  const ids = await write(async (tx) => [
    (await recordSettlement(tx, source, expected("seerbit-day-1", 40_000, 2), now)).settlement.id,
    (await recordSettlement(tx, source, expected("seerbit-day-2", 60_000, 1), now)).settlement.id,
  ]);
  assert.equal(
    (
      await db()
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.settlementId, ids[0] ?? ""))
    ).length,
    0,
    "expected: not booked",
  );
  const res = await statement([{ date: lagosDay(), amount: "1000.00", reference: "SEERBIT/STL/2", narration: "SEERBIT SETTLEMENT" }]);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.data.lines[0].match, "matched");
  for (const id of ids) {
    const [row] = await db().select().from(settlements).where(eq(settlements.id, id));
    assert.deepEqual([row?.status, row?.bankReference], ["paid", "SEERBIT/STL/2"]);
    assert.equal((await db().select().from(ledgerEntries).where(eq(ledgerEntries.settlementId, id))).length, 1, "booked once");
  }
  const paidEvents = await db()
    .select()
    .from(outbox)
    .where(and(eq(outbox.merchantId, s.merchant.merchantId), eq(outbox.event, "settlement.paid")));
  for (const id of ids) assert.ok(paidEvents.some((e) => e.payloadJson.includes(id) && e.paymentId === null));
});

test("a malformed statement is refused naming each field", async () => {
  const res = await statement([{ date: "23/11/2026", amount: "1,000", reference: "x", narration: "y" }]);
  assert.equal(res.status, 400);
  assert.deepEqual(res.json.data.errors.map((e: { field: string }) => e.field).sort(), ["lines.0.amount", "lines.0.date"]);
  const noAccount = await call(s.owo, "POST", "/api/v2/bank-statements", { token: s.token, body: { accountNumber: "12", lines: [] } });
  assert.deepEqual(noAccount.json.data.errors.map((e: { field: string }) => e.field).sort(), ["accountNumber", "lines"]);
  const zero = await statement([{ date: lagosDay(), amount: "0.00", reference: "", narration: "" }]);
  assert.deepEqual(zero.json.data.errors, [{ field: "lines.0.amount", message: "must not be 0.00" }]);
});
