// A recorded fee against the schedule the merchant agreed with the provider (API.md "Fees", "Reconciliation"), over
// real HTTP with the Paystack double (its own process, charging 1.5% + ₦100 from ₦2,500, capped at ₦2,000): a fee the
// schedule explains opens nothing, one it does not is a fee_mismatch naming both figures, and a fee the customer bore
// on top is no mismatch.
import assert from "node:assert/strict";
import { test } from "node:test";
import { call } from "../testing/harness";
import { initiateLiveTransfer, liveSuite } from "../testing/live-merchants";
import { eventually } from "../testing/eventually";
import { trpcClient } from "../testing/initiation";
import { userClient } from "../testing/sessions";
import { ownReference } from "../providers/own-references";

const SECRET_KEY = "sk_live_paystack_agreed_fees";
const live = liveSuite("paystack", { secretKey: SECRET_KEY }, { name: "Agreed fees shop" });

let n = 0;
/** A live transfer of `amount` the customer paid at Paystack (sending `sent` kobo, when they bore the fee on top). */
async function paid(amount: string, sent?: number): Promise<string> {
  const ref = `agf-${process.pid}-${++n}`;
  const linking = await initiateLiveTransfer(live.owo, live.m, amount, ref);
  const atPaystack = ownReference("paystack", `${linking}-1`);
  const pay = await fetch(`${live.double.url}/_double/transactions/${atPaystack}/pay`, {
    method: "POST",
    body: JSON.stringify(sent === undefined ? {} : { amount: sent }),
  });
  assert.equal(pay.status, 200, await pay.text());
  await eventually(
    `${ref} credited`,
    async () =>
      (await call(live.owo, "GET", `/api/v3/payments/query/${ref}`, { token: live.m.token })).json.data.payments.status === "SUCCESSFUL",
    20_000,
  );
  return ref;
}

type Exception = {
  kind: string;
  paymentReference: string | null;
  expected: string | null;
  actual: string | null;
  settlementId: string | null;
};
const feeExceptions = async (): Promise<Exception[]> =>
  ((await trpcClient(live.owo, live.m.token).reconciliation.exceptions.query({ kind: "fee_mismatch" })) as Exception[]).map(
    ({ kind, paymentReference, expected, actual, settlementId }) => ({ kind, paymentReference, expected, actual, settlementId }),
  );

test("a recorded fee the agreed schedule explains opens nothing; one it does not is a fee_mismatch with both figures", async () => {
  const dashboard = await userClient(live.owo, live.m.userId);
  // Without a schedule there is nothing to hold the fee to.
  const before = await paid("10000.00");
  assert.deepEqual(await feeExceptions(), []);

  await dashboard.providers.setFees.mutate({
    providerId: live.m.providerId,
    fees: { percent: "1.5", flat: "100", flatWaivedUnder: "2500", cap: "2000" },
  });
  await paid("10000.00"); // ₦250.00, as agreed
  await paid("1500.00"); // ₦22.50, the ₦100 waived under ₦2,500
  await fetch(`${live.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ customerBearsFees: true }) });
  await paid("5000.00", 517_500); // the customer bore Paystack's ₦175.00: the merchant's fee is ₦0.00, as the schedule says
  await fetch(`${live.double.url}/_double/integration`, { method: "POST", body: JSON.stringify({ customerBearsFees: false }) });
  assert.deepEqual(await feeExceptions(), []);

  // The merchant agreed 1.4% capped at ₦2,000, but Paystack charged its standard 1.5% + ₦100.
  await dashboard.providers.setFees.mutate({ providerId: live.m.providerId, fees: { percent: "1.4", cap: "2000" } });
  const overcharged = await paid("10000.00");
  assert.deepEqual(await feeExceptions(), [
    { kind: "fee_mismatch", paymentReference: overcharged, expected: "140.00", actual: "250.00", settlementId: null },
  ]);
  assert.notEqual(overcharged, before);

  // A person resolves it with a note; there is no residue in the books to write off (the fee was charged and booked).
  const [open] = (await trpcClient(live.owo, live.m.token).reconciliation.exceptions.query({ kind: "fee_mismatch" })) as {
    exceptionId: string;
  }[];
  const writeOff = await call(live.owo, "POST", `/api/v2/reconciliation/exceptions/${open?.exceptionId}/resolve`, {
    token: live.m.token,
    body: { note: "Paystack refunds the difference", writeOff: true },
  });
  assert.equal(writeOff.status, 400, writeOff.text);
  assert.deepEqual(
    writeOff.json.data.errors.map((e: { field: string }) => e.field),
    ["writeOff"],
  );
  const resolved = await call(live.owo, "POST", `/api/v2/reconciliation/exceptions/${open?.exceptionId}/resolve`, {
    token: live.m.token,
    body: { note: "Paystack refunds the difference" },
  });
  assert.equal(resolved.status, 200, resolved.text);
  assert.deepEqual(await feeExceptions(), []);
});
