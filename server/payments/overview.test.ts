// The overview's figures on a real database: Lagos days, volume from money received, success rate over ended payments,
// and the money as the books have it (gross, fees, refunds, net), which the channels' volumes add up to.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { eventually } from "../testing/eventually";
import { trpcClient, trpcInput, transferBody, ussdBody } from "../testing/initiation";
import { initiatePayment } from "./initiate";
import { parseInitiateRequest } from "./initiate-schema";
import { cancelPayment, expireOverdue } from "./lifecycle";
import { applyBankNotice } from "./sandbox-notices";
import { formatKobo, parseAmount } from "../money";
import { paymentOverview } from "./overview";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// 15:00 in Lagos (UTC+1) on 10 March.
const NOW = Date.parse("2026-03-10T14:00:00.000Z");
const TODAY = Date.parse("2026-03-09T23:00:00.000Z");

type Outcome = { pay?: string; decline?: true; cancel?: true };

/** A payment issued at `at` and moved by bank notices a minute later, through the same services as live traffic. */
async function history(m: TestMerchant, at: number, body: Record<string, unknown>, outcome: Outcome = {}) {
  const request = parseInitiateRequest(trpcInput(body), { publicKey: false });
  const issued = JSON.parse(
    (await initiatePayment(request, { merchantId: m.merchantId, mode: "test", source: "rest", now: at })).paymentsJson,
  );
  const target =
    request.paymentType === "USSD"
      ? { bankCode: request.bankCode, providerReference: issued.providerreference }
      : { accountNumber: issued.accountNumber };
  const notice = { provider: "sandbox", transactionId: `t-${Math.random()}`, target, senderName: "Ada" };
  if (outcome.pay) await applyBankNotice({ ...notice, kind: "credit", amountKobo: parseAmount(outcome.pay) ?? 0 }, at + MINUTE);
  if (outcome.decline) await applyBankNotice({ ...notice, kind: "decline", amountKobo: 0 }, at + MINUTE);
  if (outcome.cancel) await cancelPayment({ merchantId: m.merchantId, mode: "test" }, request.paymentReference, at + MINUTE);
}

test("today, 7 and 30 days: volume (gross, by channel), counts and success rate by channel, on Lagos days", async () => {
  const m = await createTestMerchant("Overview Store");
  await history(m, TODAY + 30 * MINUTE, ussdBody("", { amount: "100" }), { pay: "100" }); // 00:30 Lagos: today
  await history(m, TODAY - 30 * MINUTE, transferBody("", { amount: "300" }), { pay: "300" }); // 23:30 Lagos: yesterday
  await history(m, TODAY + 9 * HOUR, ussdBody("", { amount: "1500" }), { pay: "1500" });
  await history(m, TODAY + 10 * HOUR, ussdBody("", { amount: "2000" }), { decline: true });
  await history(m, TODAY + 11 * HOUR, transferBody("", { amount: "5000" }), { pay: "5500" }); // overpaid: volume is what came in
  await history(m, NOW - 10 * MINUTE, transferBody("", { amount: "10000" }), { pay: "4000" }); // still open
  await history(m, TODAY + 12 * HOUR, ussdBody("", { amount: "800" }), { cancel: true }); // the merchant's choice: neither success nor failure
  await history(m, TODAY - 3 * DAY + 12 * HOUR, transferBody("", { amount: "20000" }), { pay: "20000" });
  await history(m, TODAY - 3 * DAY + 13 * HOUR, ussdBody("", { amount: "1000" }));
  await history(m, TODAY - 20 * DAY, ussdBody("", { amount: "3000" }), { pay: "3000" });
  await history(m, TODAY - 31 * DAY, ussdBody("", { amount: "7000" }), { pay: "7000" }); // outside every period

  // Read after the 1000 USSD has expired: the overview counts what the rows say, and verify or the sweeper moved them.
  await expireOverdue(NOW);
  const { periods } = await paymentOverview({ merchantId: m.merchantId, mode: "test" }, NOW);

  const today = periods.today;
  assert.equal(today.since, new Date(TODAY).toISOString());
  assert.deepEqual(
    { ...today.totals, successRate: today.totals.successRate?.toFixed(4) },
    {
      count: 6,
      successful: 3,
      failed: 1,
      expired: 0,
      cancelled: 1,
      open: 1,
      volumeKobo: 1110000,
      volume: "11100.00",
      successRate: "0.7500",
    },
  );
  assert.equal(today.byChannel.USSD.volume, "1600.00");
  assert.equal(today.byChannel.USSD.count, 4);
  assert.equal(today.byChannel.USSD.successRate?.toFixed(4), (2 / 3).toFixed(4));
  // The overpayment whole, and the ₦4,000 part payment of the transfer still open: money received, as gross counts it.
  assert.equal(today.byChannel.TRANSFER.volume, "9500.00");
  assert.equal(today.byChannel.TRANSFER.successRate, 1);
  assert.equal(today.chart.length, 24);
  assert.deepEqual(today.chart[0], {
    start: new Date(TODAY).toISOString(),
    label: "00:00",
    USSD: 10000,
    TRANSFER: 0,
    successful: 1,
    unsuccessful: 0,
    open: 0,
    gross: 10000,
    net: 9850, // the sandbox bank's 1.5% of ₦100.00
  });
  assert.equal(today.chart[11]?.TRANSFER, 550000);
  assert.equal(today.chart[14]?.open, 1);
  assert.equal(today.chart[14]?.TRANSFER, 400000, "a part payment is money received on its channel");
  assert.deepEqual(
    [today.chart[12]?.open, today.chart[12]?.unsuccessful, today.chart[12]?.successful],
    [0, 0, 0],
    "a cancelled payment is not open",
  );

  const week = periods["7d"];
  assert.equal(week.since, new Date(TODAY - 6 * DAY).toISOString());
  assert.deepEqual([week.totals.count, week.totals.successful, week.totals.expired, week.totals.volume], [9, 5, 1, "31400.00"]);
  assert.equal(week.totals.successRate?.toFixed(4), (5 / 7).toFixed(4));
  assert.deepEqual(
    week.chart.map((p) => p.label),
    ["4 Mar", "5 Mar", "6 Mar", "7 Mar", "8 Mar", "9 Mar", "10 Mar"],
  );
  assert.deepEqual(
    week.chart.map((p) => p.TRANSFER + p.USSD),
    [0, 0, 0, 2000000, 0, 30000, 1110000],
  );
  assert.deepEqual(
    week.chart.map((p) => p.TRANSFER + p.USSD),
    week.chart.map((p) => p.gross),
    "each bucket's channels add up to its gross",
  );
  // Money by when it moved, part payments of the open transfer included: ₦20,000 less ₦400 fee on 7 Mar; ₦300 less
  // ₦4.50 late on 9 Mar; today ₦100 + ₦1,500 + ₦5,500 + ₦4,000 less ₦1.50 + ₦22.50 + ₦182.50 + ₦160.00.
  assert.deepEqual(
    week.chart.map((p) => p.net),
    [0, 0, 0, 1960000, 0, 29550, 1073350],
  );
  assert.deepEqual(today.money, {
    gross: "11100.00",
    fees: "366.50",
    refunds: "0.00",
    adjustments: "0.00",
    late: "0.00",
    latePaidBack: "0.00",
    net: "10733.50",
  });
  assert.equal(
    today.chart.reduce((sum, p) => sum + p.net, 0),
    1073350,
    "today's hourly net adds up to the day's",
  );

  const month = periods["30d"];
  assert.deepEqual([month.totals.count, month.totals.volume, month.byChannel.USSD.volume], [10, "34400.00", "4600.00"]);
  assert.equal(month.chart.length, 30);
  for (const [name, p] of Object.entries(periods))
    assert.equal(
      formatKobo(p.byChannel.USSD.volumeKobo + p.byChannel.TRANSFER.volumeKobo),
      p.money.gross,
      `${name}: the channels add up to gross`,
    );
});

test("₦24,000 taken and ₦14,000 refunded reads as gross, fees, refunds and net; late money is owed back, in neither", async () => {
  const m = await createTestMerchant("Refunding Store");
  const token = await tokenFor(owo, m);
  const body = transferBody(m.publicKey, { amount: "24000" });
  const ref = String(body.paymentReference);
  assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token, body })).status, 200);
  const pay = (patch: Record<string, unknown> = {}) =>
    call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token, body: { outcome: "pay", ...patch } });
  assert.equal((await pay()).status, 200);
  const refunded = await call(owo, "POST", `/api/v2/payments/${ref}/refunds`, { token, body: { amount: "14000.00", reason: "returned" } });
  assert.equal(refunded.status, 200, refunded.text);
  await eventually("the refund processed", async () => {
    const v = await call(owo, "GET", `/api/v3/payments/query/${ref}`, { token });
    return v.json.data.payments.amountRefunded === "14000.00";
  });

  const { periods } = await trpcClient(owo, token).payments.overview.query();
  // ₦24,000.00 pays 1.5% + ₦100 = ₦460.00.
  assert.deepEqual(periods.today.money, {
    gross: "24000.00",
    fees: "460.00",
    refunds: "14000.00",
    adjustments: "0.00",
    late: "0.00",
    latePaidBack: "0.00",
    net: "9540.00",
  });
  assert.deepEqual(periods["30d"].money, periods.today.money);
  assert.equal(periods["7d"].chart.at(-1)?.net, 954000);
  const listed = await trpcClient(owo, token).payments.list.query({});
  assert.equal(listed.items.find((p) => p.paymentReference === ref)?.refunded, "partly_refunded", "the list marks it");

  // The same transfer sent again after the payment closed: owed back, its ₦15.00 fee the merchant's.
  assert.equal((await pay({ amount: "1000" })).status, 200, "a second transfer to the closed payment");
  const after = await trpcClient(owo, token).payments.overview.query();
  assert.deepEqual(after.periods.today.money, {
    gross: "24000.00",
    fees: "475.00",
    refunds: "14000.00",
    adjustments: "0.00",
    late: "1000.00",
    latePaidBack: "0.00",
    net: "9525.00",
  });

  // Paying the late ₦1,000 back is not a refund of a sale: refunds and net stay, and it is told apart.
  const back = await call(owo, "POST", `/api/v2/payments/${ref}/refunds`, { token, body: { amount: "1000.00", reason: "sent twice" } });
  assert.equal(back.status, 200, back.text);
  const paidBack = await eventually("the late money paid back", async () => {
    const money = (await trpcClient(owo, token).payments.overview.query()).periods.today.money;
    return money.latePaidBack === "1000.00" && money;
  });
  assert.deepEqual(paidBack, { ...after.periods.today.money, latePaidBack: "1000.00" });
});

test("over HTTP the overview is the caller's own, and counts a payment the sandbox bank just paid", async () => {
  const m = await createTestMerchant("Live Overview Store");
  const other = await createTestMerchant("Quiet Store");
  const token = await tokenFor(owo, m);
  const res = await call(owo, "POST", "/api/v2/payments/initiates", { token, body: ussdBody(m.publicKey, { amount: "2500" }) });
  const ref = res.json.data.payments.paymentReference;
  assert.equal((await call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token, body: { outcome: "pay" } })).status, 200);

  const mine = await trpcClient(owo, token).payments.overview.query();
  assert.equal(mine.periods.today.totals.volume, "2500.00");
  assert.equal(mine.periods.today.byChannel.USSD.successful, 1);
  assert.equal(mine.periods["30d"].totals.successRate, 1);
  const theirs = await trpcClient(owo, await tokenFor(owo, other)).payments.overview.query();
  assert.equal(theirs.periods["30d"].totals.count, 0);
  assert.equal(theirs.periods["30d"].totals.successRate, null);
});
