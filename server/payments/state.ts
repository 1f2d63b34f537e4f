// What a payment's state means for whoever looks at it, decided once here: pages (dashboard, checkout) show these
// fields and never work them out again from statuses or amounts.
import type { PaymentRow } from "../../db/schema";
import { formatKobo } from "../money";
import { isOpen } from "./status";

/** What is still owed of the amount (nothing once paid in full or over). */
export function amountDueKobo(p: Pick<PaymentRow, "amountKobo" | "amountPaidKobo">): number {
  return Math.max(0, p.amountKobo - p.amountPaidKobo);
}

/** A customer's next transfer in full: what is owed, or the whole amount again when nothing is. */
export function nextTransferKobo(p: Pick<PaymentRow, "amountKobo" | "amountPaidKobo">): number {
  const due = amountDueKobo(p);
  return due > 0 ? due : p.amountKobo;
}

export type RefundMark = "refunded" | "partly_refunded";

/**
 * Whether the money that arrived for a payment went back to its customer: all of it, part of it, or none (null). What
 * arrived is amountPaid and the late money (amountToRefund); only PROCESSED refunds (amountRefunded) count.
 */
export function refundMark(p: Pick<PaymentRow, "amountPaidKobo" | "amountToRefundKobo" | "amountRefundedKobo">): RefundMark | null {
  if (p.amountRefundedKobo <= 0) return null;
  return p.amountRefundedKobo >= p.amountPaidKobo + p.amountToRefundKobo ? "refunded" : "partly_refunded";
}

export type PaymentState = {
  /** Money can still settle it (PENDING or PARTIALLY_PAID). */
  open: boolean;
  amountDue: string;
  /** Some money arrived for it (whether or not it settled it). */
  somethingPaid: boolean;
  /** Money arrived after it had ended: the customer's, until refunded (lateMoney says how much is still owed). */
  refundDue: boolean;
  /** API.md: only a PENDING payment can be cancelled. */
  canCancel: boolean;
  /** What may still be refunded: amountPaid + amountToRefund − refunds PENDING, NEEDS_ATTENTION or PROCESSED. */
  refundable: string;
  /** API.md: only a payment that is not open, with something still refundable, at a provider that refunds. */
  canRefund: boolean;
  /**
   * The sandbox bank's transfers for a test payment: in full (the whole amount again when nothing is owed: late
   * money) and half of what is owed (null when that is under a kobo).
   */
  sandboxTransfer: { full: string; half: string | null };
  /** Whether its money went back, as the payments list marks it (refundMark). */
  refunded: RefundMark | null;
  /**
   * Money API.md keeps in `sales` until the merchant refunds it, which the dashboard shows as refundable: what a payment
   * that expired part-paid received, or the excess of an overpayment. `amount` is what of it is still refundable (no
   * more than `refundable`: a refund asked for or paid takes it down); null when nothing of it is.
   */
  refundAdvised: RefundAdvice | null;
};

export type RefundAdvice = { why: "expired_part_paid" | "overpaid"; received: string; amount: string };

function refundAdvice(p: PaymentRow, refundableKobo: number): RefundAdvice | null {
  const why = p.status === "EXPIRED" && p.amountPaidKobo > 0 ? "expired_part_paid" : p.amountPaidKobo > p.amountKobo ? "overpaid" : null;
  if (why === null) return null;
  const kept = why === "expired_part_paid" ? p.amountPaidKobo : p.amountPaidKobo - p.amountKobo;
  // Refunds (asked for or paid) go back out of late money first, then out of sales (API.md "Ledger and balances"):
  // what they took from sales is what was received, less late money, that is no longer refundable.
  const backFromSales = Math.max(0, p.amountPaidKobo - refundableKobo);
  const amount = Math.min(kept - backFromSales, refundableKobo);
  return amount > 0 ? { why, received: formatKobo(p.amountPaidKobo), amount: formatKobo(amount) } : null;
}

/**
 * `refunds`: what the payment's refunds leave refundable and whether its provider refunds through Owo (the caller
 * reads both); without it, everything that arrived and is not yet refunded counts.
 */
export function paymentState(p: PaymentRow, refunds?: { refundableKobo: number; atProvider: boolean }): PaymentState {
  const open = isOpen(p.status);
  const due = amountDueKobo(p);
  const refundable = open ? 0 : (refunds?.refundableKobo ?? p.amountPaidKobo + p.amountToRefundKobo - p.amountRefundedKobo);
  return {
    open,
    amountDue: formatKobo(due),
    somethingPaid: p.amountPaidKobo > 0,
    refundDue: p.amountToRefundKobo > 0,
    canCancel: p.status === "PENDING",
    refundable: formatKobo(refundable),
    canRefund: refundable > 0 && (refunds?.atProvider ?? true),
    sandboxTransfer: { full: formatKobo(nextTransferKobo(p)), half: due > 1 ? formatKobo(Math.floor(due / 2)) : null },
    refunded: refundMark(p),
    refundAdvised: refundAdvice(p, refundable),
  };
}

/** Money that arrived after a payment had ended, as its customer is told: what came, what went back, what is still owed. */
export type LateMoney = { arrived: string; refunded: string; owed: string };

/** What went back to a payment's customer: of the money that paid for it, and of the late money (null: none came). */
export type MoneyBack = { paidBack: string; late: LateMoney | null };

/**
 * `owedBackKobo`: what the books still hold in refund_due for the payment (server/books/payment-books.ts). A refund
 * pays late money back before anything else, but only the books know how much of it was late money when it was paid.
 */
export function moneyBack(p: Pick<PaymentRow, "amountToRefundKobo" | "amountRefundedKobo">, owedBackKobo: number): MoneyBack {
  const owed = Math.min(Math.max(0, owedBackKobo), p.amountToRefundKobo);
  const lateRefunded = p.amountToRefundKobo - owed;
  return {
    paidBack: formatKobo(Math.max(0, p.amountRefundedKobo - lateRefunded)),
    late:
      p.amountToRefundKobo > 0
        ? { arrived: formatKobo(p.amountToRefundKobo), refunded: formatKobo(lateRefunded), owed: formatKobo(owed) }
        : null,
  };
}
