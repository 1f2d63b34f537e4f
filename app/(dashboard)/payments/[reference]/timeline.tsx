// The payment's events in order, in words: what the bank said and what it did to the payment.
import { lagosDateTime, naira, STATUS_LABEL } from "@/app/payment-display";
import type { PaymentWithTimeline } from "@/server/payments/timeline";
import styles from "./detail.module.css";

type Event = PaymentWithTimeline["timeline"][number];

function describe(e: Event): string {
  const amount = e.amount ? naira(e.amount) : "";
  const from = typeof e.detail.senderName === "string" && e.detail.senderName ? ` from ${e.detail.senderName}` : "";
  switch (e.type) {
    case "initiated":
      return `Payment created for ${amount}`;
    case "partially_paid":
      return `${amount} received${from}; the rest is still owed`;
    case "successful":
      return `${amount} received${from}; paid in full`;
    case "failed":
      return "The customer's bank declined the debit";
    case "expired":
      return "Time ran out before the payment was complete";
    case "cancelled":
      return "The merchant cancelled the payment";
    case "refund_requested":
      return `Refund of ${amount} requested (${String(e.detail.refundReference)}): ${String(e.detail.reason)}`;
    case "refund_processed":
      return `${amount} paid back to the customer (${String(e.detail.refundReference)})`;
    case "refund_failed":
      return `Refund of ${amount} failed (${String(e.detail.refundReference)})${typeof e.detail.failureReason === "string" ? `: ${e.detail.failureReason}` : ""}`;
    case "refund_due":
      return `${amount} arrived${from} after the payment had ended; due for refund`;
    default:
      return e.type;
  }
}

export function Timeline({ events }: { events: Event[] }) {
  return (
    <section className="card">
      <h2>Timeline</h2>
      <ol className={styles.timeline} data-testid="timeline">
        {events.map((e) => (
          <li key={e.sequence} className={styles[`dot_${e.status}`]}>
            <span className={styles.eventText}>{describe(e)}</span>
            <span className={styles.eventMeta}>
              {STATUS_LABEL[e.status as keyof typeof STATUS_LABEL] ?? e.status} · {lagosDateTime(e.createdAt)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
