// A settlement its provider restates before paying it (Flutterwave's pending settlements take in refunds; a line is
// dropped): Owo keeps the provider's latest lines, books those when it is paid, and closes the findings it no longer
// shows. Once paid, its lines are its books and stay as they were.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { write } from "../../db/client";
import { verifyLedger } from "../books/verify";
import type { SettlementLineReading, SettlementReading } from "../providers/settlement-reading";
import { listExceptions, exceptionQuery } from "../reconciliation/exceptions";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { settlementPostings } from "../testing/books";
import { recordSettlement } from "./record";
import type { SettlementSource } from "./sources";
import { getSettlement } from "./view";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const sale: SettlementLineReading = {
  kind: "payment",
  providerTransactionId: "4099260700",
  providerReference: "shop-order-78",
  grossKobo: 500_000,
  feeKobo: 7_000,
  netKobo: 493_000,
};
const stray: SettlementLineReading = {
  kind: "payment",
  providerTransactionId: "4099260701",
  providerReference: "owo_0000stray2",
  grossKobo: 1_000_000,
  feeKobo: 14_000,
  netKobo: 986_000,
};

/** A settlement of `lines`, its figures theirs. */
function reading(status: SettlementReading["status"], lines: SettlementLineReading[]): SettlementReading {
  const sum = (pick: (l: SettlementLineReading) => number) => lines.reduce((total, l) => total + pick(l), 0);
  return {
    providerSettlementId: "41440",
    status,
    destination: "bank",
    currency: "NGN",
    grossKobo: sum((l) => l.grossKobo),
    feeKobo: sum((l) => l.feeKobo),
    refundKobo: 0,
    adjustmentKobo: 0,
    netKobo: sum((l) => l.netKobo),
    settledAt: Date.parse("2026-11-23T09:00:00Z"),
    lines,
  };
}

test("a pending settlement restated without a line keeps the provider's latest lines, books those when paid, and closes the finding it no longer shows", async () => {
  const { merchantId } = await createTestMerchant();
  const source: SettlementSource = { merchantId, mode: "live", provider: "flutterwave", providerAccountId: "prv_restatedtest000000" };
  const scope = { merchantId, mode: "live" as const };
  const first = await write((tx) => recordSettlement(tx, source, reading("pending", [sale, stray]), Date.now()));
  const id = first.settlement.id;
  assert.deepEqual((await getSettlement(scope, id)).reconciliation, { status: "exceptions", exceptions: 1 }, "the stray line");

  const restated = await write((tx) => recordSettlement(tx, source, reading("pending", [sale]), Date.now()));
  assert.equal(restated.settlement.id, id);
  const s = await getSettlement(scope, id);
  assert.deepEqual(
    s.lines.map((l) => [l.providerTransactionId, l.kind, l.netAmount]),
    [["4099260700", "external", "4930.00"]],
  );
  assert.deepEqual([s.netAmount, s.reconciliation], ["4930.00", { status: "matched", exceptions: 0 }]);
  const [closed] = await listExceptions(scope, exceptionQuery.parse({ status: "resolved", settlementId: id }));
  assert.deepEqual([closed?.kind, closed?.note], ["unknown_payment", "No longer found when 41440 was read again"]);

  await write((tx) => recordSettlement(tx, source, reading("paid", [sale]), Date.now()));
  // Paid as restated: the sale is the merchant's other business, nothing went to suspense.
  assert.deepEqual(await settlementPostings(id), ["settlement bank 493000", "settlement external -493000"]);

  // A paid settlement's lines and figures are its books: a later reading with other lines moves nothing of them.
  await write((tx) => recordSettlement(tx, source, reading("paid", [sale, stray]), Date.now()));
  const later = await getSettlement(scope, id);
  assert.deepEqual(
    [later.lines.map((l) => l.providerTransactionId), later.grossAmount, later.netAmount],
    [["4099260700"], "5000.00", "4930.00"],
  );
  assert.deepEqual(await settlementPostings(id), ["settlement bank 493000", "settlement external -493000"]);
  const verdict = await verifyLedger({ merchantId });
  assert.equal(verdict.ok, true, JSON.stringify(verdict));
});
