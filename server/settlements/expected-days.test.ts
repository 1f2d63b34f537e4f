// SeerBit publishes no settlement API: Owo expects one settlement per Lagos day gone by from its own credits (with the
// fees it booked) less the refunds it processed through SeerBit, and a bank statement line naming SeerBit makes it paid.
// Over real HTTP against the SeerBit double (its own process); polled twice, expected once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { clock } from "../clock";
import { DAY_MS, HOUR_MS, dayStartOf } from "../payments/calendar";
import { call } from "../testing/harness";
import { initiateLiveTransfer, liveSuite } from "../testing/live-merchants";
import { eventually } from "../testing/eventually";
import { pollSettlements } from "./poll";
import { setRefundsEnabled } from "../providers/accounts";
import { findPayment } from "../payments/lookup";

const KEYS = { publicKey: "SBPUBK_expected_days", secretKey: "SBSECK_expected_days" };
const live = liveSuite("seerbit", KEYS, {
  name: "SeerBit expected days shop",
  env: { OWO_REQUERY_BACKOFF_SCALE: "0.1", OWO_PROVIDER_TIMEOUT_MS: "6500" },
  flags: { "retry-delays-ms": "100,300" },
  prepare: async ({ m }) => setRefundsEnabled(m.merchantId, m.providerId, true),
});

const verify = async (ref: string) =>
  (await call(live.owo, "GET", `/api/v3/payments/query/${ref}`, { token: live.m.token })).json.data.payments;

test("a day of SeerBit payments and a refund is expected the next day, once, and a bank line naming SeerBit makes it paid", async () => {
  const ref = `sbx-${process.pid}`;
  await initiateLiveTransfer(live.owo, live.m, "5000.00", ref);
  const atSeerBit = (await findPayment({ merchantId: live.m.merchantId, mode: "live" }, ref)).issueReference ?? "";
  await fetch(`${live.double.url}/_double/transactions/${atSeerBit}/pay`, { method: "POST", body: "{}" });
  await eventually("credited", async () => (await verify(ref)).status === "SUCCESSFUL", 20_000);
  const refund = await call(live.owo, "POST", `/api/v2/payments/${ref}/refunds`, {
    token: live.m.token,
    body: { amount: "500.00", reason: "one item back", refundReference: `RFD-${ref}` },
  });
  assert.equal(refund.status, 200, refund.text);
  await eventually("refunded", async () => (await verify(ref)).amountRefunded === "500.00", 20_000);

  assert.equal((await pollSettlements(clock.now())).created, 0, "today is not over: nothing is expected of it yet");
  const tomorrow = dayStartOf(clock.now()) + DAY_MS + 60_000;
  assert.equal((await pollSettlements(tomorrow)).created, 1);
  assert.equal((await pollSettlements(tomorrow + 3_600_000)).created, 0, "polled again, expected once");

  const list = (await call(live.owo, "GET", "/api/v2/settlements", { token: live.m.token })).json.data.settlements as {
    settlementId: string;
  }[];
  assert.equal(list.length, 1);
  const id = list[0]?.settlementId;
  const s = (await call(live.owo, "GET", `/api/v2/settlements/${id}`, { token: live.m.token })).json.data.settlement;
  const today = new Date(dayStartOf(clock.now()) + HOUR_MS).toISOString().slice(0, 10);
  // ₦5,000.00 less SeerBit's 1.5% (₦75.00) less the ₦500.00 refund.
  assert.deepEqual(
    [s.providerSettlementId, s.status, s.provider, s.grossAmount, s.feeAmount, s.refundAmount, s.netAmount, s.settledAt],
    [`expected:${today}`, "expected", "seerbit", "5000.00", "75.00", "500.00", "4425.00", null],
  );
  assert.deepEqual(
    (s.lines as { kind: string; paymentReference: string; netAmount: string }[]).map((l) => [l.kind, l.paymentReference, l.netAmount]),
    [
      ["payment", ref, "4925.00"],
      ["refund", ref, "-500.00"],
    ],
  );
  assert.deepEqual(s.reconciliation, { status: "matched", exceptions: 0 });
  assert.equal((await verify(ref)).settlementId, null, "expected is not paid");

  const statement = await call(live.owo, "POST", "/api/v2/bank-statements", {
    token: live.m.token,
    body: {
      accountNumber: "0123456789",
      lines: [{ date: today, amount: "4425.00", reference: "SBT-7731", narration: "SEERBIT SETTLEMENT" }],
    },
  });
  assert.equal(statement.status, 200, statement.text);
  assert.equal(statement.json.data.lines[0]?.settlementId, id);
  const paid = (await call(live.owo, "GET", `/api/v2/settlements/${id}`, { token: live.m.token })).json.data.settlement;
  assert.deepEqual([paid.status, paid.bankReference], ["paid", "SBT-7731"]);
  assert.equal((await verify(ref)).settlementId, id);
  assert.equal((await pollSettlements(tomorrow + 7_200_000)).created, 0, "a confirmed day is never expected again");
  const again = (await call(live.owo, "GET", `/api/v2/settlements/${id}`, { token: live.m.token })).json.data.settlement;
  assert.equal(again.status, "paid");
});
