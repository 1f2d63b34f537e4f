// Contract: Flutterwave's own settlement sample (./fixtures/settlement-sdk.json, from its SDK's documentation) read by
// the connector's settlement reader, with the figures a merchant would see; and what the reader refuses rather than
// record a payout half read or with a figure made up.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { ProviderUnavailable } from "../connector";
import { readFlutterwaveSettlement } from "./settlements";

type Settlement = Record<string, unknown> & { transactions: Record<string, unknown>[] };
const sample = (): { status: string; message: string; data: Settlement } =>
  (JSON.parse(readFileSync(new URL("./fixtures/settlement-sdk.json", import.meta.url), "utf8")) as { body: never }).body;

/** Flutterwave answering GET /v3/settlements/41497 with `body`, and nothing else. */
const answering = (body: unknown) => async (path: string) =>
  path === "/v3/settlements/41497" ? { status: 200, body } : { status: 404, body: { status: "error", message: "not found" } };

test("Flutterwave's settlement sample: paid to the wallet, each transaction a line of what was charged, its fee and what it settled; meta's ids are not the transactions'", async () => {
  const reading = await readFlutterwaveSettlement(answering(sample()), "41497");
  assert.deepEqual(
    [reading.providerSettlementId, reading.status, reading.destination, reading.currency],
    ["41497", "paid", "wallet", "NGN"],
  );
  assert.deepEqual(
    [reading.grossKobo, reading.feeKobo, reading.refundKobo, reading.adjustmentKobo, reading.netKobo],
    [5_080_000, 95_000, 0, 0, 4_985_000],
  );
  assert.equal(reading.settledAt, Date.parse("2019-12-30T04:00:00.000Z"), "no processed_date: its due date");
  // Each line gives only what was charged (no `amount`), so whether the customer bore the fee is left to recording.
  assert.deepEqual(
    reading.lines.map((l) => [l.kind, l.providerTransactionId, l.providerReference, l.grossKobo, l.feeKobo, l.netKobo, l.chargedOnly]),
    [
      ["payment", "984411", "Rave-Pages017117571060", 1_014_000, 19_000, 995_000, true],
      ["payment", "984456", "Rave-Pages017117571060", 1_014_000, 19_000, 995_000, true],
      ["payment", "984474", "Rave-Pages017117571060", 1_019_000, 19_000, 1_000_000, true],
      ["payment", "984513", "Rave-Pages017117571060", 1_019_000, 19_000, 1_000_000, true],
      ["payment", "984517", "Rave-Pages017117571060", 1_014_000, 19_000, 995_000, true],
    ],
  );
  // Each line's net is the settlement_amount Flutterwave paid for it.
  assert.deepEqual(
    reading.lines.map((l) => l.netKobo),
    sample().data.transactions.map((t) => Number(t.settlement_amount) * 100),
  );
});

test("a transaction's merchant_fee is a deduction beside it, not part of Flutterwave's fee (API.md: its fee is app_fee)", async () => {
  const body = sample();
  const [first] = body.data.transactions;
  if (!first) throw new Error("the sample lists transactions");
  first.merchant_fee = 10;
  first.settlement_amount = 9940;
  Object.assign(body.data, { merchant_fee: 10, net_amount: 49840 });
  const reading = await readFlutterwaveSettlement(answering(body), "41497");
  assert.deepEqual([reading.feeKobo, reading.adjustmentKobo, reading.netKobo], [95_000, 1_000, 4_984_000]);
  assert.deepEqual(
    reading.lines.slice(0, 2).map((l) => [l.kind, l.providerTransactionId, l.grossKobo, l.feeKobo, l.netKobo]),
    [
      ["payment", "984411", 1_014_000, 19_000, 995_000],
      ["adjustment", "merchantfee:984411", -1_000, 0, -1_000],
    ],
  );
  assert.equal(
    reading.lines.reduce((sum, l) => sum + l.netKobo, 0),
    reading.netKobo,
    "the lines add up to what was paid",
  );
});

test("a settlement with fewer transactions than its transaction_count, or without its net, is refused, never recorded half read", async () => {
  const short = sample();
  short.data.transactions.pop();
  await assert.rejects(readFlutterwaveSettlement(answering(short), "41497"), (e: unknown) => {
    assert.ok(e instanceof ProviderUnavailable);
    assert.match(e.message, /4 of its 5 transactions/);
    return true;
  });
  const netless = sample();
  delete netless.data.net_amount;
  await assert.rejects(readFlutterwaveSettlement(answering(netless), "41497"), ProviderUnavailable);
});
