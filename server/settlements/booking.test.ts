// A live provider's settlement on the books as its status moves: nothing while withheld, one `settlement` entry when
// paid (other sales to `external`, lines under Owo's prefix for no payment to `suspense`, a wallet payout to the
// provider wallet), and a `settlement_failed` entry that puts it back exactly when the provider reports it failed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { write } from "../../db/client";
import { verifyLedger } from "../books/verify";
import type { SettlementReading } from "../providers/settlement-reading";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { settlementPostings } from "../testing/books";
import { recordSettlement } from "./record";
import type { SettlementSource } from "./sources";
import { getSettlement } from "./view";
import { exceptionQuery, listExceptions } from "../reconciliation/exceptions";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const reading = (status: SettlementReading["status"], destination: SettlementReading["destination"] = "bank"): SettlementReading => ({
  providerSettlementId: "5400172",
  status,
  destination,
  currency: "NGN",
  grossKobo: 1_500_000,
  feeKobo: 22_500,
  refundKobo: 0,
  adjustmentKobo: 5_000,
  netKobo: 1_472_500,
  settledAt: Date.parse("2026-11-23T09:00:00Z"),
  lines: [
    {
      kind: "payment",
      providerTransactionId: "4099260600",
      providerReference: "shop-order-77",
      grossKobo: 500_000,
      feeKobo: 7_500,
      netKobo: 492_500,
    },
    {
      kind: "payment",
      providerTransactionId: "4099260601",
      providerReference: "owo_0000stray",
      grossKobo: 1_000_000,
      feeKobo: 15_000,
      netKobo: 985_000,
    },
    { kind: "adjustment", providerTransactionId: "stamp-5400172", providerReference: null, grossKobo: -5_000, feeKobo: 0, netKobo: -5_000 },
  ],
});

/** A new merchant's live settlements from its account `providerAccountId` at `provider`. */
async function liveSource(provider: SettlementSource["provider"], providerAccountId: string): Promise<SettlementSource> {
  const { merchantId } = await createTestMerchant();
  return { merchantId, mode: "live", provider, providerAccountId };
}

test("withheld books nothing; paid books once with external and suspense; failed reverses it exactly", async () => {
  const source = await liveSource("flutterwave", "prv_bookingtest0000000");
  const held = await write((tx) => recordSettlement(tx, source, reading("withheld"), Date.now()));
  assert.equal(held.created, true);
  assert.deepEqual(await settlementPostings(held.settlement.id), []);
  const lines = (await getSettlement(source, held.settlement.id)).lines;
  assert.deepEqual(
    lines.map((l) => [l.kind, l.matched]),
    [
      ["external", false],
      ["unknown", false],
      ["adjustment", false],
    ],
  );
  const paid = await write((tx) => recordSettlement(tx, source, reading("paid"), Date.now()));
  assert.equal(paid.settlement.id, held.settlement.id, "the same provider settlement is recorded once");
  const again = await write((tx) => recordSettlement(tx, source, reading("paid"), Date.now()));
  assert.equal(again.statusChanged, false);
  // N 1472500, A 5000, E 492500, U 985000: the provider's own posting −(N + A − E − U) is 0 (no line was an Owo
  // payment, so nothing it held for Owo moves), and a zero posting is left out.
  const paidEntry = [
    "settlement bank 1472500",
    "settlement adjustments 5000",
    "settlement external -492500",
    "settlement suspense -985000",
  ];
  assert.deepEqual(await settlementPostings(held.settlement.id), paidEntry);
  // Paid is booked: a later listing of it as pending with other figures, then paid again, moves nothing.
  const restated = { ...reading("pending"), netKobo: 1_000_000 };
  await write((tx) => recordSettlement(tx, source, restated, Date.now()));
  await write((tx) => recordSettlement(tx, source, { ...restated, status: "paid" }, Date.now()));
  const stillPaid = await getSettlement(source, held.settlement.id);
  assert.deepEqual([stillPaid.status, stillPaid.netAmount], ["paid", "14725.00"]);
  assert.deepEqual(await settlementPostings(held.settlement.id), paidEntry, "booked once");
  await write((tx) => recordSettlement(tx, source, reading("failed"), Date.now()));
  assert.deepEqual(await settlementPostings(held.settlement.id), [
    ...paidEntry,
    "settlement_failed bank -1472500",
    "settlement_failed adjustments -5000",
    "settlement_failed external 492500",
    "settlement_failed suspense 985000",
  ]);
  const verdict = await verifyLedger({ merchantId: source.merchantId });
  assert.equal(verdict.ok, true, JSON.stringify(verdict));
});

test("a withheld settlement whose figures the provider restates is checked again: a net that no longer adds up is a net_mismatch", async () => {
  const source = await liveSource("flutterwave", "prv_restatedfigures000");
  const held = await write((tx) => recordSettlement(tx, source, reading("withheld"), Date.now()));
  const summary = async () => (await getSettlement(source, held.settlement.id)).reconciliation;
  const before = await summary();
  await write((tx) => recordSettlement(tx, source, { ...reading("withheld"), netKobo: 1_400_000 }, Date.now()));
  assert.deepEqual(await summary(), { status: "exceptions", exceptions: before.exceptions + 1 });
  const [found] = await listExceptions(source, exceptionQuery.parse({ kind: "net_mismatch", settlementId: held.settlement.id }));
  assert.deepEqual([found?.expected, found?.actual], ["14725.00", "14000.00"]);
});

test("a payout to the provider wallet (Flutterwave autowallet) is booked to provider_wallet, not the bank", async () => {
  const source = await liveSource("flutterwave", "prv_wallettest00000000");
  const s = await write((tx) => recordSettlement(tx, source, reading("paid", "wallet"), Date.now()));
  assert.equal((await settlementPostings(s.settlement.id))[0], "settlement provider_wallet:prv_wallettest00000000 1472500");
});

test("Paystack's lines are Owo's under Paystack's form of the prefix (owo-: it refuses '_'), the rest are the merchant's other sales", async () => {
  const source = await liveSource("paystack", "prv_paystackowolines0");
  const base = reading("withheld");
  const lines = base.lines.map((l) =>
    l.providerReference === "owo_0000stray" ? { ...l, providerReference: "owo-OWO00000000000000001-1" } : l,
  );
  const s = await write((tx) => recordSettlement(tx, source, { ...base, providerSettlementId: "PSK-9001", lines }, Date.now()));
  assert.deepEqual(
    (await getSettlement(source, s.settlement.id)).lines.map((l) => [l.providerReference, l.kind]),
    [
      ["shop-order-77", "external"],
      ["owo-OWO00000000000000001-1", "unknown"],
      [null, "adjustment"],
    ],
  );
});
