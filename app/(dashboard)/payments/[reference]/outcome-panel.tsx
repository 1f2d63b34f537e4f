// What happened to the payment, first: one sentence, then the money as a sum that reads left to right (paid, late money,
// the provider's fee, refunds, what is still owed back, what the merchant keeps), then what is the customer's to have
// back. The figures come from the server (the payment, its state and its books), never worked out here.
import { lagosDateTime, naira } from "@/app/payment-display";
import type { PaymentWithTimeline } from "@/server/payments/timeline";
import styles from "./detail.module.css";

type Props = { detail: PaymentWithTimeline };

function headline({ payments: p, state }: PaymentWithTimeline): string {
  switch (p.status) {
    case "PENDING":
      return `Waiting for the customer to pay ${naira(p.amount)}.`;
    case "PARTIALLY_PAID":
      return `${naira(p.amountPaid)} of ${naira(p.amount)} received; ${naira(state.amountDue)} is still owed.`;
    case "SUCCESSFUL":
      return p.amountPaid === p.amount
        ? `Paid in full on ${lagosDateTime(p.paidAt)}.`
        : `Paid on ${lagosDateTime(p.paidAt)}: ${naira(p.amountPaid)} received for ${naira(p.amount)}.`;
    case "FAILED":
      return "The customer's bank declined the payment; no money was taken.";
    case "EXPIRED":
      return state.somethingPaid
        ? `Expired on ${lagosDateTime(p.expiresAt)} with ${naira(p.amountPaid)} of ${naira(p.amount)} received.`
        : `Expired on ${lagosDateTime(p.expiresAt)} before the customer paid.`;
    case "CANCELLED":
      return "Cancelled: the customer can no longer pay it.";
  }
}

/** Money API.md keeps in the merchant's sales until refunded, as the core advised it (state.refundAdvised). */
function advice({ payments: p, state }: PaymentWithTimeline): string | null {
  const a = state.refundAdvised;
  if (!a) return null;
  const until = "It counts in your net until you refund it";
  return a.why === "expired_part_paid"
    ? `${naira(a.received)} of ${naira(p.amount)} was received before this payment expired: ${naira(a.amount)} of it is refundable to the customer. ${until}.`
    : `The customer paid ${naira(a.received)} for ${naira(p.amount)}: ${naira(a.amount)} paid over is refundable to them. ${until}.`;
}

export function OutcomePanel({ detail }: Props) {
  const { payments: p, state, books } = detail;
  // Owed back is what the books still hold in refund_due: late money already paid back is no longer the customer's due.
  const refundOwed = books.owedBack !== "0.00";
  const advised = advice(detail);
  // Read left to right, the row adds up: paid (+ late money) − fees − refunds (− what the provider deducted, − late
  // money still owed back) = net.
  return (
    <section className={`card ${styles.outcome}`} aria-labelledby="outcome-title">
      <h2 id="outcome-title">What happened</h2>
      <p className={styles.headline} data-testid="outcome">
        {headline(detail)}
      </p>
      <dl className={styles.money} data-testid="money">
        <div>
          <dt>Paid</dt>
          <dd data-testid="amount-paid">{naira(p.amountPaid)}</dd>
        </div>
        {state.refundDue && (
          <div>
            <dt>+ Arrived late</dt>
            <dd data-testid="amount-late">{naira(p.amountToRefund)}</dd>
          </div>
        )}
        <div>
          <dt>− Fee</dt>
          <dd data-testid="fee-amount">{naira(books.fee)}</dd>
        </div>
        <div>
          <dt>− Refunded</dt>
          <dd data-testid="amount-refunded">{naira(p.amountRefunded)}</dd>
        </div>
        {books.deducted !== "0.00" && (
          <div>
            <dt>− Deducted by the provider</dt>
            <dd data-testid="amount-deducted">{naira(books.deducted)}</dd>
          </div>
        )}
        {refundOwed && (
          <div className={styles.owed}>
            <dt>− Owed back</dt>
            <dd data-testid="amount-owed-back">{naira(books.owedBack)}</dd>
          </div>
        )}
        <div>
          <dt>= Net to you</dt>
          <dd data-testid="net-amount">{naira(books.net)}</dd>
        </div>
      </dl>
      {refundOwed && (
        <p className={styles.note}>
          {naira(books.owedBack)} that arrived after this payment had ended is the customer&apos;s: refund it to them.
        </p>
      )}
      {advised && (
        <p className={styles.advice} data-testid="refund-advised">
          {advised}
        </p>
      )}
    </section>
  );
}
