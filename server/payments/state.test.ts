// A payment's state as pages show it: open, owed, refund due, what may be done next, the sandbox bank's transfers.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PaymentRow, PaymentStatus } from "../../db/schema";
import { paymentState, refundMark } from "./state";

const row = (status: PaymentStatus, amountKobo: number, amountPaidKobo: number, amountToRefundKobo = 0) =>
  ({ status, amountKobo, amountPaidKobo, amountToRefundKobo, amountRefundedKobo: 0 }) as PaymentRow;

test("a pending payment is open, owes it all, can be cancelled and not refunded", () => {
  assert.deepEqual(paymentState(row("PENDING", 150_000, 0)), {
    open: true,
    amountDue: "1500.00",
    somethingPaid: false,
    refundDue: false,
    canCancel: true,
    refundable: "0.00",
    canRefund: false,
    sandboxTransfer: { full: "1500.00", half: "750.00" },
    refunded: null,
    refundAdvised: null,
  });
});

test("a partly paid payment owes the rest, and can be neither cancelled nor refunded while open", () => {
  const s = paymentState(row("PARTIALLY_PAID", 150_000, 50_001));
  assert.deepEqual([s.open, s.amountDue, s.somethingPaid, s.canCancel, s.canRefund], [true, "999.99", true, false, false]);
  assert.deepEqual(s.sandboxTransfer, { full: "999.99", half: "499.99" });
});

test("a paid payment owes nothing, can be refunded, and the sandbox's next transfer is the whole amount again", () => {
  const s = paymentState(row("SUCCESSFUL", 150_000, 150_000));
  assert.deepEqual([s.open, s.amountDue, s.refundDue, s.canCancel, s.canRefund], [false, "0.00", false, false, true]);
  assert.deepEqual(s.sandboxTransfer, { full: "1500.00", half: null });
});

test("money after expiry is refund due and refundable; an expired payment nobody paid is not", () => {
  const late = paymentState(row("EXPIRED", 100_000, 0, 100_000));
  assert.deepEqual([late.open, late.refundDue, late.canRefund], [false, true, true]);
  const unpaid = paymentState(row("EXPIRED", 100_000, 0));
  assert.deepEqual([unpaid.refundDue, unpaid.canRefund, unpaid.somethingPaid], [false, false, false]);
});

test("refunds PENDING or PROCESSED leave less refundable; nothing left, or a provider that cannot refund, is no refund", () => {
  const paid = row("SUCCESSFUL", 150_000, 150_000);
  assert.deepEqual(
    [paymentState({ ...paid, amountRefundedKobo: 50_000 }).refundable, paymentState({ ...paid, amountRefundedKobo: 50_000 }).canRefund],
    ["1000.00", true],
  );
  const some = paymentState(paid, { refundableKobo: 40_000, atProvider: true });
  assert.deepEqual([some.refundable, some.canRefund], ["400.00", true]);
  assert.equal(paymentState(paid, { refundableKobo: 0, atProvider: true }).canRefund, false);
  const elsewhere = paymentState(paid, { refundableKobo: 150_000, atProvider: false });
  assert.deepEqual([elsewhere.refundable, elsewhere.canRefund], ["1500.00", false]);
});

test("a kobo owed cannot be halved", () => {
  assert.equal(paymentState(row("PARTIALLY_PAID", 100, 99)).sandboxTransfer.half, null);
});

test("a payment whose money all went back is refunded, some of it partly refunded; a pending refund marks nothing", () => {
  const paid = row("SUCCESSFUL", 150_000, 150_000);
  assert.equal(refundMark(paid), null);
  assert.equal(refundMark({ ...paid, amountRefundedKobo: 1 }), "partly_refunded");
  assert.equal(refundMark({ ...paid, amountRefundedKobo: 150_000 }), "refunded");
  // Late money counts as money that arrived: the sale refunded, the late ₦500.00 not yet.
  assert.equal(refundMark({ ...row("SUCCESSFUL", 150_000, 150_000, 50_000), amountRefundedKobo: 150_000 }), "partly_refunded");
  assert.equal(refundMark({ ...row("EXPIRED", 100_000, 0, 100_000), amountRefundedKobo: 100_000 }), "refunded");
});

test("the page marks refunds as the list does: the same refundMark", () => {
  const paid = { ...row("SUCCESSFUL", 150_000, 150_000), amountRefundedKobo: 50_000 };
  assert.equal(paymentState(paid).refunded, refundMark(paid));
  assert.equal(paymentState({ ...paid, amountRefundedKobo: 150_000 }).refunded, "refunded");
});

test("part payments of an expired payment and an overpayment's excess are advised as refundable, until refunded", () => {
  const expired = row("EXPIRED", 750_000, 375_000);
  assert.deepEqual(paymentState(expired, { refundableKobo: 375_000, atProvider: true }).refundAdvised, {
    why: "expired_part_paid",
    received: "3750.00",
    amount: "3750.00",
  });
  // A refund asked for or paid takes it down; all of it gone back, nothing is advised.
  assert.equal(paymentState(expired, { refundableKobo: 100_000, atProvider: true }).refundAdvised?.amount, "1000.00");
  assert.equal(paymentState(expired, { refundableKobo: 0, atProvider: true }).refundAdvised, null);
  const over = row("SUCCESSFUL", 150_000, 200_000);
  assert.deepEqual(paymentState(over, { refundableKobo: 200_000, atProvider: true }).refundAdvised, {
    why: "overpaid",
    received: "2000.00",
    amount: "500.00",
  });
  // Refunds go back out of sales here (no late money): ₦200.00 of the excess back leaves ₦300.00, all of it nothing.
  assert.equal(paymentState(over, { refundableKobo: 180_000, atProvider: true }).refundAdvised?.amount, "300.00");
  assert.equal(paymentState(over, { refundableKobo: 150_000, atProvider: true }).refundAdvised, null);
  // Late money is paid back first (API.md "Ledger and balances"): refunding it leaves the excess as it was.
  const overAndLate = { ...over, amountToRefundKobo: 100_000 };
  assert.equal(paymentState(overAndLate, { refundableKobo: 300_000, atProvider: true }).refundAdvised?.amount, "500.00");
  assert.equal(paymentState(overAndLate, { refundableKobo: 200_000, atProvider: true }).refundAdvised?.amount, "500.00");
  assert.equal(paymentState(overAndLate, { refundableKobo: 170_000, atProvider: true }).refundAdvised?.amount, "200.00");
  // Paid exactly, expired unpaid, or still open: nothing to advise.
  for (const p of [row("SUCCESSFUL", 150_000, 150_000), row("EXPIRED", 150_000, 0), row("PARTIALLY_PAID", 150_000, 50_000)])
    assert.equal(paymentState(p).refundAdvised, null);
});
