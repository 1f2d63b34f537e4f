// A Paystack chargeback is booked once (API.md "Ledger and balances": each provider deduction once, keyed by the
// provider's own id), though Paystack tells it twice: its charge.dispute.resolve webhook, and the settlement that
// deducts the refund it made for the dispute (GET /refund's `dispute` and `settlement`) — and a third time when Owo
// asks about the transaction (verify says `reversed`, List Disputes says how much, under the same dispute). Each
// order, over real HTTP against the Paystack double in its own process.
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { test } from "node:test";
import { call } from "../testing/harness";
import { initiateLiveTransfer, liveSuite } from "../testing/live-merchants";
import { eventually } from "../testing/eventually";
import { ownReference } from "../providers/own-references";
import { clock } from "../clock";
import { HOUR_MS, dayStartOf } from "../payments/calendar";
import { pollSettlements } from "./poll";
import { verifyLedger } from "../books/verify";
import { db } from "../../db/client";
import { payments } from "../../db/schema";
import { requeryPayment } from "../payments/requery";

const SECRET_KEY = "sk_live_paystack_chargebacks";
const live = liveSuite(
  "paystack",
  { secretKey: SECRET_KEY },
  { name: "Paystack chargebacks shop", env: { OWO_SETTLEMENT_GRACE_DAYS: "0" } },
);

let n = 0;
const api = async (path: string) => (await call(live.owo, "GET", path, { token: live.m.token })).json.data;
const verify = async (ref: string) => (await api(`/api/v3/payments/query/${ref}`)).payments;
/** Owo asks Paystack about the payment, as a requery does (a notice's confirmation asks the same). */
async function requery(ref: string): Promise<void> {
  const [p] = await db().select().from(payments).where(eq(payments.paymentReference, ref));
  assert.ok(p, ref);
  await requeryPayment(p);
}
const control = (path: string, body: unknown = {}) =>
  fetch(`${live.double.url}/_double${path}`, { method: "POST", body: JSON.stringify(body) });

/** A live TRANSFER payment the customer paid at Paystack: Owo's reference and the one Paystack knows it by. */
async function paid(amount: string): Promise<{ ref: string; atPaystack: string }> {
  const ref = `chb-${process.pid}-${++n}`;
  const linking = await initiateLiveTransfer(live.owo, live.m, amount, ref);
  const atPaystack = ownReference("paystack", `${linking}-1`);
  await control(`/transactions/${atPaystack}/pay`);
  await eventually(`${ref} credited`, async () => (await verify(ref)).status === "SUCCESSFUL", 20_000);
  return { ref, atPaystack };
}

/** Paystack settles what it holds; Owo reads it. The settlement as Owo recorded it, with its lines. */
async function settled() {
  const res = await control("/settlements");
  assert.equal(res.status, 200);
  const paystackId = String(((await res.json()) as { data: { id: number } }).data.id);
  await pollSettlements();
  const list = (await api("/api/v2/settlements")).settlements as { settlementId: string; providerSettlementId: string }[];
  const found = list.find((s) => s.providerSettlementId === paystackId);
  assert.ok(found, `settlement ${paystackId} recorded`);
  return (await api(`/api/v2/settlements/${found.settlementId}`)).settlement;
}

type Entry = {
  kind: string;
  reason: string | null;
  paymentReference: string | null;
  settlementId: string | null;
  postings: { account: string; amount: string }[];
};
const entries = async () => (await api("/api/v2/ledger/entries?limit=500")).entries as Entry[];
const chargebacks = async (ref: string) => (await entries()).filter((e) => e.kind === "adjustment" && e.paymentReference === ref);
const adjustmentsOf = (e: Entry | undefined) => e?.postings.find((p) => p.account === "adjustments")?.amount ?? "0.00";
type Line = { kind: string; paymentReference: string | null; netAmount: string; matched: boolean };

const kobo = (naira: string) => Number(naira.replace(".", ""));
const today = () => new Date(dayStartOf(clock.now()) + HOUR_MS).toISOString().slice(0, 10);
/** The figures a chargeback moves, in kobo: each test compares them before and after. */
async function figures(): Promise<number[]> {
  const balances = (await api("/api/v2/balances")).balances;
  const report = (await api(`/api/v2/reconciliation?from=${today()}&to=${today()}`)).report;
  return [balances.adjustments, balances.providers[0]?.unsettled ?? "0.00", balances.bank, report.adjustments].map(kobo);
}

/** What the merchant sees once the chargeback and the settlement are both in: the chargeback once, on its payment. */
async function bookedOnce(
  ref: string,
  settlement: { settlementId: string; lines: Line[]; reconciliation: unknown; adjustmentAmount: string },
  before: number[],
) {
  assert.deepEqual(
    settlement.lines.map((l) => [l.kind, l.paymentReference, l.netAmount, l.matched]),
    [
      ["payment", ref, "4825.00", true],
      ["adjustment", ref, "-3000.00", true],
    ],
    "the dispute's refund is a chargeback line of the payment, not a refund Owo made",
  );
  assert.equal(settlement.adjustmentAmount, "3000.00");
  assert.deepEqual(settlement.reconciliation, { status: "matched", exceptions: 0 });
  const [chargeback, ...more] = await chargebacks(ref);
  assert.equal(more.length, 0, "one chargeback entry");
  assert.equal(chargeback?.reason, "chargeback");
  assert.equal(adjustmentsOf(chargeback), "3000.00");
  const payout = (await entries()).find((e) => e.kind === "settlement" && e.settlementId === settlement.settlementId);
  assert.equal(adjustmentsOf(payout), "0.00", "the settlement does not book the chargeback again");
  // ₦5,000 paid (Paystack's fee ₦175 on it), ₦3,000 taken back: ₦1,825 reaches the bank and Paystack holds nothing.
  const now = await figures();
  assert.deepEqual(
    now.map((k, i) => k - (before[i] ?? 0)),
    [300000, 0, 182500, 300000],
    "adjustments, unsettled at Paystack, bank, the report's adjustments",
  );
  assert.equal((await verifyLedger({ merchantId: live.m.merchantId })).ok, true, "balances still equal the entries");
  assert.deepEqual((await api(`/api/v2/reconciliation?from=${today()}&to=${today()}`)).report.exceptions, [], "no exception opened");
  assert.deepEqual([(await verify(ref)).status, (await verify(ref)).amountPaid], ["SUCCESSFUL", "5000.00"]);
}

test("a dispute lost and booked from Paystack's webhook, then deducted by a settlement: the chargeback is booked once", async () => {
  const before = await figures();
  const a = await paid("5000.00");
  assert.equal((await control(`/transactions/${a.atPaystack}/chargeback`, { amount: 300000 })).status, 200);
  await eventually("the webhook's chargeback booked", async () => (await chargebacks(a.ref)).length === 1);
  await bookedOnce(a.ref, await settled(), before);
  await pollSettlements();
  assert.equal((await chargebacks(a.ref)).length, 1, "read again, still once");
});

test("a settlement deducting a dispute before its webhook arrives books the chargeback; the late webhook books nothing more", async () => {
  const before = await figures();
  const b = await paid("5000.00");
  // Paystack's webhook is held until released (the double's reorder fault holds it for a second one).
  assert.equal((await control("/faults", { kind: "reorder-webhooks", times: 2 })).status, 200);
  assert.equal((await control(`/transactions/${b.atPaystack}/chargeback`, { amount: 300000 })).status, 200);
  const settlement = await settled();
  assert.equal((await chargebacks(b.ref)).length, 1, "booked from the settlement, on the payment");
  await fetch(`${live.double.url}/_double/faults`, { method: "DELETE" });
  assert.equal((await control("/webhooks/release")).status, 200);
  const delivered = (await (await fetch(`${live.double.url}/_double/webhooks`)).json()) as {
    webhooks: { event: string; answer: number | string }[];
  };
  assert.equal(delivered.webhooks.findLast((w) => w.event === "charge.dispute.resolve")?.answer, 200);
  await bookedOnce(b.ref, settlement, before);
});

test("a requery finding the transaction reversed before the dispute's webhook books the dispute's amount, not the whole payment; the webhook and the settlement book nothing more", async () => {
  const before = await figures();
  const c = await paid("5000.00");
  assert.equal((await control("/faults", { kind: "reorder-webhooks", times: 2 })).status, 200);
  assert.equal((await control(`/transactions/${c.atPaystack}/chargeback`, { amount: 300000 })).status, 200);
  await requery(c.ref);
  const [first, ...more] = await chargebacks(c.ref);
  assert.deepEqual([adjustmentsOf(first), more.length], ["3000.00", 0], "the dispute's ₦3,000, not the ₦5,000 paid");
  await fetch(`${live.double.url}/_double/faults`, { method: "DELETE" });
  assert.equal((await control("/webhooks/release")).status, 200);
  const delivered = (await (await fetch(`${live.double.url}/_double/webhooks`)).json()) as {
    webhooks: { event: string; answer: number | string }[];
  };
  assert.equal(delivered.webhooks.findLast((w) => w.event === "charge.dispute.resolve")?.answer, 200);
  assert.equal((await chargebacks(c.ref)).length, 1, "the late webhook books nothing more");
  await bookedOnce(c.ref, await settled(), before);
});

test("a requery after the dispute's webhook books nothing more", async () => {
  const before = await figures();
  const d = await paid("5000.00");
  assert.equal((await control(`/transactions/${d.atPaystack}/chargeback`, { amount: 300000 })).status, 200);
  await eventually("the webhook's chargeback booked", async () => (await chargebacks(d.ref)).length === 1);
  await requery(d.ref);
  await bookedOnce(d.ref, await settled(), before);
});
