// tRPC serves settlements from the same core as REST: the same settlement, the same refusals.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call } from "../testing/harness";
import { paidInSandbox, startInitiating, transferBody, trpcFailure, type InitiatingMerchant } from "../testing/initiation";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating();
});
after(() => s.owo.stop());

test("sandbox.settle, settlements.list and settlements.byId answer what REST answers", async () => {
  await paidInSandbox(s, transferBody(s.merchant.publicKey, { amount: "2500.00" }));
  const bad = await trpcFailure(s.trpc.sandbox.settle.mutate({ shortBy: "lots" }));
  assert.equal(bad.apiCode, "S5");
  assert.deepEqual(
    bad.errors.map((e) => e.field),
    ["shortBy"],
  );
  const settled = await s.trpc.sandbox.settle.mutate({ adjustment: "50.00" });
  assert.equal(settled.netAmount, "2312.50", "₦2,500.00 less ₦137.50 fee less ₦50.00 stamp duty");
  assert.deepEqual(await s.trpc.settlements.byId.query({ settlementId: settled.settlementId }), settled);
  const rest = await call(s.owo, "GET", `/api/v2/settlements/${settled.settlementId}`, { token: s.token });
  assert.deepEqual(rest.json.data.settlement, settled);
  const page = await s.trpc.settlements.list.query({ status: "paid" });
  assert.deepEqual(
    page.settlements.map((x) => x.settlementId),
    [settled.settlementId],
  );
  assert.equal((await trpcFailure(s.trpc.settlements.byId.query({ settlementId: "stl_nosuchsettlement000000" }))).httpStatus, 404);
});

test("settlements.explained gives each line the core's verdict and findings, and counts a sale paid in parts once", async () => {
  const inParts = transferBody(s.merchant.publicKey, { amount: "123.44" });
  await paidInSandbox(s, inParts, { outcome: "pay", amount: "100.00" });
  await call(s.owo, "POST", `/api/v2/sandbox/payments/${String(inParts.paymentReference)}/simulate`, {
    token: s.token,
    body: { outcome: "pay", amount: "23.44" },
  });
  const whole = await paidInSandbox(s, transferBody(s.merchant.publicKey, { amount: "2500.00" }));
  // The first line (the first part of the payment paid in two) is charged ₦5.00 more fee than the schedule; a line
  // for no Owo payment; stamp duty.
  const settled = await s.trpc.sandbox.settle.mutate({ feeBy: "5.00", unknownLine: true, adjustment: "50.00" });
  const explained = await s.trpc.settlements.explained.query({ settlementId: settled.settlementId });
  const { lines, sales, exceptions, openExceptions, ...settlement } = explained;
  const { lines: asListed, ...plain } = settled;
  assert.deepEqual(settlement, plain, "the settlement's own fields as REST has them");
  assert.deepEqual(
    lines.map(({ verdict: _verdict, findings: _findings, ...line }) => line),
    asListed,
  );
  assert.deepEqual(
    lines.map((l) => [l.kind, l.paymentReference, l.verdict, l.findings]),
    [
      // Only the part that disagrees is marked, not every line of its payment.
      ["payment", inParts.paymentReference, "disagrees", ["fee_mismatch"]],
      ["payment", inParts.paymentReference, "matched", []],
      ["payment", whole, "matched", []],
      ["unknown", null, "unmatched", ["unknown_payment"]],
      ["adjustment", null, "deducted", []],
    ],
  );
  assert.equal(sales, 3, "the payment paid in two parts, the whole one, the unknown line");
  assert.deepEqual(exceptions.map((e) => e.kind).sort(), ["fee_mismatch", "unknown_payment"]);
  assert.equal(openExceptions, 2);

  // Resolved, a finding no longer marks its line, and the exception is still listed as resolved.
  const fee = exceptions.find((e) => e.kind === "fee_mismatch");
  await s.trpc.reconciliation.resolve.mutate({ exceptionId: fee?.exceptionId ?? "", note: "agreed with the bank" });
  const after = await s.trpc.settlements.explained.query({ settlementId: settled.settlementId });
  assert.deepEqual(after.lines[0]?.verdict, "matched");
  assert.equal(after.openExceptions, 1);
  assert.ok(after.exceptions.some((e) => e.exceptionId === fee?.exceptionId && e.resolvedAt !== null));
  // The payout's own summary follows what is still open, as the list, REST and the CSV read it.
  assert.deepEqual(after.reconciliation, { status: "exceptions", exceptions: 1 });
  const unknown = exceptions.find((e) => e.kind === "unknown_payment");
  await s.trpc.reconciliation.resolve.mutate({ exceptionId: unknown?.exceptionId ?? "", note: "a test line", writeOff: true });
  const rest = await call(s.owo, "GET", `/api/v2/settlements/${settled.settlementId}`, { token: s.token });
  assert.deepEqual(rest.json.data.settlement.reconciliation, { status: "matched", exceptions: 0 });
  const none = await s.trpc.settlements.explained.query({ settlementId: settled.settlementId });
  assert.equal(none.openExceptions, 0);
  assert.deepEqual(
    none.lines.map((l) => l.verdict),
    ["matched", "matched", "matched", "unmatched", "deducted"],
  );
});
