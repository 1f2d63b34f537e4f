// The list flags the money API.md keeps in sales until the merchant refunds it ("Ledger and balances": part payments of a
// payment that expired, an overpayment's excess) as state.ts's refundAdvised has it, with refunds.ts's count, on both
// databases.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { trpcClient, transferBody, ussdBody } from "../testing/initiation";
import { eventually } from "../testing/eventually";
import { expireOverdue } from "./lifecycle";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

test("expired part payments and an overpayment's excess are listed as received and refundable", async () => {
  const m = await createTestMerchant("Held Money Store");
  const token = await tokenFor(owo, m);
  const issue = async (body: Record<string, unknown>) => {
    const res = await call(owo, "POST", "/api/v2/payments/initiates", { token, body });
    assert.equal(res.status, 200, res.text);
    return String(body.paymentReference);
  };
  const pay = async (ref: string, amount?: string) => {
    const res = await call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token, body: { outcome: "pay", amount } });
    assert.equal(res.status, 200, res.text);
  };

  const expired = await issue(transferBody(m.publicKey, { amount: "7500" }));
  await pay(expired, "3750");
  await expireOverdue(Date.now() + 31 * 60_000); // past the transfer's 30 minutes
  const overpaid = await issue(transferBody(m.publicKey, { amount: "5000" }));
  await pay(overpaid, "5500");
  const exact = await issue(transferBody(m.publicKey, { amount: "1500" }));
  await pay(exact);
  const partPaid = await issue(transferBody(m.publicKey, { amount: "2000" }));
  await pay(partPaid, "500");
  const cancelled = await issue(ussdBody(m.publicKey, { amount: "1000" }));
  assert.equal((await call(owo, "POST", `/api/v2/payments/${cancelled}/cancel`, { token })).status, 200);
  await pay(cancelled); // the customer's bank debits them after all: late money

  const api = trpcClient(owo, token);
  const held = async () =>
    Object.fromEntries((await api.payments.list.query({})).items.map((p) => [p.paymentReference, [p.status, p.refundAdvised]]));
  assert.deepEqual(await held(), {
    [expired]: ["EXPIRED", { why: "expired_part_paid", received: "3750.00", amount: "3750.00" }],
    [overpaid]: ["SUCCESSFUL", { why: "overpaid", received: "5500.00", amount: "500.00" }],
    [exact]: ["SUCCESSFUL", null],
    [partPaid]: ["PARTIALLY_PAID", null], // still open: the customer may pay the rest
    [cancelled]: ["CANCELLED", null], // late money: refund due (its own line on the payment's page), not kept in sales
  });

  // A refund counts from the moment it is asked for, as refunds.ts reserves it, not once the provider has paid it.
  const refund = (ref: string, amount: string) =>
    call(owo, "POST", `/api/v2/payments/${ref}/refunds`, { token, body: { amount, reason: "the customer's money" } });
  assert.equal((await refund(expired, "1000.00")).status, 200);
  assert.deepEqual((await held())[expired], ["EXPIRED", { why: "expired_part_paid", received: "3750.00", amount: "2750.00" }]);

  // Each row's net is what its page's books say the merchant keeps, beside its fee; a payment nothing arrived for has none.
  await eventually(
    "the refund processed",
    async () => (await api.payments.byReference.query({ paymentReference: expired })).payments.amountRefunded === "1000.00",
  );
  const nothing = await issue(transferBody(m.publicKey, { amount: "900" }));
  const rows = (await api.payments.list.query({})).items;
  const listed = Object.fromEntries(rows.map((p) => [p.paymentReference, p.kept && [p.kept.fee, p.kept.net]]));
  for (const ref of [expired, overpaid, exact, partPaid, cancelled]) {
    const { books } = await api.payments.byReference.query({ paymentReference: ref });
    assert.deepEqual(listed[ref], [books.fee, books.net], ref);
  }
  // The sandbox bank's schedule: 1.5 %, plus ₦100 from ₦2,500 up.
  assert.deepEqual(listed, {
    [expired]: ["156.25", "2593.75"], // ₦3,750 arrived, ₦1,000 refunded
    [overpaid]: ["182.50", "5317.50"], // all ₦5,500 kept in sales until the excess is refunded
    [exact]: ["22.50", "1477.50"],
    [partPaid]: ["7.50", "492.50"],
    [cancelled]: ["15.00", "-15.00"], // late money is the customer's; its fee is the merchant's
    [nothing]: null,
  });
});

test("late money is listed as owed back until a refund pays it back, whatever was refunded before it came", async () => {
  const m = await createTestMerchant("Late Money Store");
  const token = await tokenFor(owo, m);
  const api = trpcClient(owo, token);
  const owed = async () => Object.fromEntries((await api.payments.list.query({})).items.map((p) => [p.paymentReference, p.owedBack]));
  const send = async (path: string, body: Record<string, unknown>) => {
    const res = await call(owo, "POST", path, { token, body });
    assert.equal(res.status, 200, res.text);
  };
  const processed = (ref: string, kobo: number) =>
    eventually(`${ref}'s refunds processed`, async () => {
      const [p] = (await api.payments.list.query({ search: ref })).items;
      return p?.amountRefunded === (kobo / 100).toFixed(2);
    });

  const issued = async (body: Record<string, unknown>) => {
    await send("/api/v2/payments/initiates", body);
    return String(body.paymentReference);
  };
  const cancelled = await issued(ussdBody(m.publicKey, { amount: "1000" }));
  await send(`/api/v2/payments/${cancelled}/cancel`, {});
  await send(`/api/v2/sandbox/payments/${cancelled}/simulate`, { outcome: "pay" });
  // Paid, ₦500.00 of the sale refunded, then ₦1,000.00 more arrived after it had ended: all of the late money is owed.
  const paidFirst = await issued(transferBody(m.publicKey, { amount: "1500" }));
  await send(`/api/v2/sandbox/payments/${paidFirst}/simulate`, { outcome: "pay" });
  await send(`/api/v2/payments/${paidFirst}/refunds`, { amount: "500.00", reason: "one item returned" });
  await processed(paidFirst, 500_00);
  await send(`/api/v2/sandbox/payments/${paidFirst}/simulate`, { outcome: "pay", amount: "1000" });
  assert.deepEqual(await owed(), { [cancelled]: "1000.00", [paidFirst]: "1000.00" });

  // A refund pays late money back first: what it paid is no longer owed.
  await send(`/api/v2/payments/${cancelled}/refunds`, { amount: "400.00", reason: "the customer's money" });
  await processed(cancelled, 400_00);
  assert.equal((await owed())[cancelled], "600.00");
});
