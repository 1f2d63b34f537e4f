// The demo's sample payments: weeks of history in both channels and every status, made by the real services, no callbacks
// queued; the sandbox bank's own books hold every seeded credit, it settled each past night, and the ledger agrees.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, asc, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { db, write } from "../../db/client";
import {
  bankNotices,
  ledgerBalances,
  ledgerEntries,
  ledgerPostings,
  outbox,
  paymentEvents,
  payments,
  reconciliationExceptions,
  sandboxBankCredits,
  settlements,
} from "../../db/schema";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { seedDemoPayments } from "./demo-payments";
import { paymentOverview } from "../payments/overview";
import { DAY_MS, dayStartOf } from "../payments/calendar";
import { verifyLedger } from "../books/verify";
import { settleSandboxNow } from "../settlements/sandbox";
import { checkNotSettled } from "../reconciliation/not-settled";
import { clock } from "../clock";

let owo: Owo;
let merchantId: string;
let count: number;
const now = clock.now();
const scope = () => ({ merchantId, mode: "test" as const });
const sandbox = () => ({ merchantId, mode: "test" as const, provider: "sandbox" as const, providerAccountId: null });
const kobo = (a: string) => Math.round(Number(a) * 100);

before(async () => {
  owo = await startOwo();
  merchantId = (await createTestMerchant("Demo Store")).merchantId;
  count = await seedDemoPayments(merchantId, now);
});
after(() => owo.stop());

const bankCredits = () => db().select().from(sandboxBankCredits).where(eq(sandboxBankCredits.merchantId, merchantId));

/** What the ledger says the sandbox bank holds for the merchant, not yet paid out. */
async function unsettledInLedger(): Promise<number> {
  const [row] = await db()
    .select({ kobo: ledgerBalances.balanceKobo })
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.merchantId, merchantId), eq(ledgerBalances.mode, "test"), eq(ledgerBalances.account, "provider:sandbox")));
  return row?.kobo ?? 0;
}

test("seedDemoPayments fills four weeks across both channels and every status, and queues no callback", async () => {
  assert.ok(count >= 200, `a few weeks of payments, got ${count}`);
  const rows = await db()
    .select({ status: payments.status, channel: payments.paymentType, createdAt: payments.createdAt })
    .from(payments)
    .where(eq(payments.merchantId, merchantId));
  assert.equal(rows.length, count);
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
  const days = new Set(rows.map((r) => dayStartOf(r.createdAt)));
  assert.ok(days.size >= 25, `spread over weeks, got ${days.size} days`);

  const events = await db()
    .selectDistinct({ type: paymentEvents.type })
    .from(paymentEvents)
    .innerJoin(payments, eq(payments.id, paymentEvents.paymentId))
    .where(eq(payments.merchantId, merchantId));
  for (const type of ["initiated", "successful", "partially_paid", "failed", "expired", "refund_due"])
    assert.ok(
      events.some((e) => e.type === type),
      `a ${type} event`,
    );
  const queued = await db()
    .select({ event: outbox.event, paymentId: outbox.paymentId })
    .from(outbox)
    .where(eq(outbox.merchantId, merchantId));
  assert.deepEqual(
    queued.filter((e) => e.paymentId !== null),
    [],
    "no callback queued for history",
  );
  // The bank's nightly settlements are announced as a real night's are: to the merchant's endpoints (the demo has none).
  assert.deepEqual(new Set(queued.map((e) => e.event)), new Set(["settlement.paid"]));

  const { periods } = await paymentOverview(scope());
  assert.ok(periods["30d"].totals.volumeKobo > 0);
  assert.ok(periods["7d"].chart.filter((p) => p.USSD + p.TRANSFER > 0).length >= 6, "the week's chart has bars");
});

test("the sandbox bank's own books hold every credit the ledger has from it, as if each notice came over HTTP", async () => {
  const credits = await bankCredits();
  const noticed = await db()
    .select({ transactionId: bankNotices.providerTransactionId, amountKobo: bankNotices.amountKobo })
    .from(bankNotices)
    .innerJoin(payments, eq(payments.id, bankNotices.paymentId))
    .where(and(eq(payments.merchantId, merchantId), eq(bankNotices.kind, "credit")));
  assert.ok(noticed.length >= 150, `many credits, got ${noticed.length}`);
  const byId = (rows: { transactionId: string; amountKobo: number }[]) =>
    new Map(rows.map((r) => [r.transactionId, r.amountKobo] as const).sort(([a], [b]) => a.localeCompare(b)));
  assert.deepEqual(byId(credits), byId(noticed));

  // Each payment's money in the ledger (what sales and refund_due were credited) is the money the bank says it sent.
  const booked = await db()
    .select({ paymentReference: ledgerEntries.paymentReference, amountKobo: ledgerPostings.amountKobo })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(
      and(
        eq(ledgerEntries.merchantId, merchantId),
        inArray(ledgerEntries.kind, ["credit", "late_credit"]),
        inArray(ledgerPostings.account, ["sales", "refund_due"]),
      ),
    );
  const perPayment = (rows: { paymentReference: string | null; amountKobo: number }[]) => {
    const sums = new Map<string, number>();
    for (const r of rows) sums.set(r.paymentReference ?? "", (sums.get(r.paymentReference ?? "") ?? 0) + r.amountKobo);
    return new Map([...sums].sort(([a], [b]) => a.localeCompare(b)));
  };
  assert.deepEqual(perPayment(booked.map((b) => ({ ...b, amountKobo: -b.amountKobo }))), perPayment(credits));
});

test("the bank settled each past night as of that night, leaving unsettled only what arrived since the last midnight", async () => {
  const credits = await bankCredits();
  const today = dayStartOf(now);
  const paid = await db().select().from(settlements).where(eq(settlements.merchantId, merchantId)).orderBy(asc(settlements.settledAt));
  const creditDays = [...new Set(credits.filter((c) => c.sentAt < today).map((c) => dayStartOf(c.sentAt)))].sort((a, b) => a - b);
  assert.ok(creditDays.length >= 25, `weeks of nights, got ${creditDays.length}`);
  assert.deepEqual(
    paid.map((s) => [s.status, s.settledAt, s.createdAt]),
    creditDays.map((day) => ["paid", day + DAY_MS, day + DAY_MS]),
    "one paid settlement for each night, paid out at that midnight",
  );
  const nightOf = new Map(paid.map((s) => [s.providerSettlementId, s.settledAt]));
  for (const c of credits) {
    if (c.sentAt >= today) assert.equal(c.settlementId, null, `${c.paymentReference}: today's credit waits for tonight`);
    else assert.equal(nightOf.get(c.settlementId ?? ""), dayStartOf(c.sentAt) + DAY_MS, `${c.paymentReference}: settled that night`);
  }
  const paidOut = await db()
    .select({ kind: ledgerEntries.kind, postedAt: ledgerEntries.postedAt })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.merchantId, merchantId), isNotNull(ledgerEntries.settlementId)));
  assert.deepEqual(
    paidOut.map((e) => e.postedAt).sort((a, b) => a - b),
    paid.map((s) => s.createdAt),
    "each night's payout is in the books at its midnight",
  );
});

const entriesInOrder = () =>
  db()
    .select({ sequence: ledgerEntries.sequence, postedAt: ledgerEntries.postedAt })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.merchantId, merchantId))
    .orderBy(asc(ledgerEntries.sequence));

test("the ledger verifies, and its entries' posted times follow their sequence", async () => {
  const entries = await entriesInOrder();
  assert.deepEqual(await verifyLedger({ merchantId }), { ok: true, entries: entries.length });
  for (let i = 1; i < entries.length; i++) {
    const [prev, next] = [entries[i - 1], entries[i]];
    assert.ok(prev && next && prev.postedAt <= next.postedAt, `#${next?.sequence} is posted before #${prev?.sequence}`);
  }
});

test("Settle now pays out what the ledger says the sandbox holds; no seeded credit is overdue for reconciliation", async () => {
  const unsettled = await db()
    .select({ amountKobo: sandboxBankCredits.amountKobo, feeKobo: sandboxBankCredits.feeKobo })
    .from(sandboxBankCredits)
    .where(and(eq(sandboxBankCredits.merchantId, merchantId), isNull(sandboxBankCredits.settlementId)));
  const held = await unsettledInLedger();
  assert.ok(held > 0, "today's credits are still with the bank");
  // The seed makes no refunds: what the bank would settle now is its unsettled credits less its fees.
  assert.equal(
    unsettled.reduce((sum, c) => sum + c.amountKobo - c.feeKobo, 0),
    held,
  );
  assert.equal(await write((tx) => checkNotSettled(tx, sandbox(), now)), 0, "no credit is overdue");
  const settled = await settleSandboxNow(scope(), {});
  assert.equal(kobo(settled.netAmount), held);
  assert.deepEqual(settled.reconciliation, { status: "matched", exceptions: 0 });
  assert.equal(await unsettledInLedger(), 0);
  assert.deepEqual(
    await db().select().from(reconciliationExceptions).where(eq(reconciliationExceptions.merchantId, merchantId)),
    [],
    "no reconciliation exception",
  );
  assert.equal((await verifyLedger({ merchantId })).ok, true);
});
