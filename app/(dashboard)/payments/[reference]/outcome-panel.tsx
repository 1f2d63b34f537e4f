// What happened to the payment, first: one sentence, then the money: paid, the provider's fee, what the merchant keeps,
// refunds and what is owed back. The figures come from the server (the payment and its books), never worked out here.
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

export function OutcomePanel({ detail }: Props) {
  const { payments: p, state, books } = detail;
  // Owed back is what the books still hold in refund_due: late money already paid back is no longer the customer's due.
  const refundOwed = books.owedBack !== "0.00";
  return (
    <section className={`card ${styles.outcome}`} aria-labelledby="outcome-title">
      <h2 id="outcome-title">What happened</h2>
      <p className={styles.headline} data-testid="outcome">
        {headline(detail)}
      </p>
      <dl className={styles.money}>
        <div>
          <dt>Paid</dt>
          <dd data-testid="amount-paid">{naira(p.amountPaid)}</dd>
        </div>
        <div>
          <dt>Fee</dt>
          <dd data-testid="fee-amount">{naira(books.fee)}</dd>
        </div>
        <div>
          <dt>Net to you</dt>
          <dd data-testid="net-amount">{naira(books.net)}</dd>
        </div>
        <div>
          <dt>Refunded</dt>
          <dd data-testid="amount-refunded">{naira(p.amountRefunded)}</dd>
        </div>
        {state.refundDue && (
          <div className={refundOwed ? styles.owed : undefined}>
            <dt>Arrived late</dt>
            <dd>{naira(p.amountToRefund)}</dd>
          </div>
        )}
      </dl>
      {refundOwed && (
        <p className={styles.note}>
          {naira(books.owedBack)} that arrived after this payment had ended is the customer&apos;s: refund it to them.
        </p>
      )}
    </section>
  );
}
