// The payment's events in order, in words: what the bank said and what it did to the payment.
import { lagosDateTime, naira, STATUS_LABEL } from "@/app/payment-display";
import type { PaymentWithTimeline } from "@/server/payments/timeline";
import styles from "./history.module.css";

type Event = PaymentWithTimeline["timeline"][number];
type ProviderEntry = PaymentWithTimeline["providerLog"][number];

/** What the provider told Owo (a notice) or answered when asked (a requery), and what Owo did with it. */
function describeProvider(n: ProviderEntry): string {
  const what = n.source === "requery" ? "Asked the provider" : "Notice from the provider";
  const did: Record<string, string> = {
    applied: "applied",
    unchanged: "nothing new",
    duplicate: "a repeat, applied before",
    rejected: "refused, nothing moved",
    no_payment: "not for this payment",
    ignored: "ignored",
    unanswered: "no answer",
  };
  return `${what}: ${did[n.outcome] ?? n.outcome} (${n.reason})`;
}

function describe(e: Event): string {
  const amount = e.amount ? naira(e.amount) : "";
  const from = typeof e.detail.senderName === "string" && e.detail.senderName ? ` from ${e.detail.senderName}` : "";
  switch (e.type) {
    case "initiated":
      return `Payment created for ${amount}.`;
    case "partially_paid":
      return `${amount} received${from}; the rest is still owed.`;
    case "successful":
      return `${amount} received${from}; paid in full.`;
    case "failed":
      return "The customer's bank declined the debit.";
    case "expired":
      return "Time ran out before the payment was complete.";
    case "cancelled":
      return "The merchant cancelled the payment.";
    case "refund_requested":
      return `You asked to refund ${amount} to the customer (${String(e.detail.refundReference)}), because: ${String(e.detail.reason)}.`;
    case "refund_processed":
      return `${amount} paid back to the customer (${String(e.detail.refundReference)}).`;
    case "refund_failed":
      return `The refund of ${amount} failed (${String(e.detail.refundReference)})${typeof e.detail.failureReason === "string" ? `: ${e.detail.failureReason}` : ""}.`;
    case "refund_needs_attention":
      return `The provider needs the customer's bank account to pay back ${amount} (${String(e.detail.refundReference)}).`;
    case "refund_account_given":
      return `The refund of ${amount} was sent again to the customer's account at ${String(e.detail.bankName)} ending ${String(e.detail.accountEnding)}.`;
    case "refund_due":
      return `${amount} arrived${from} after the payment had ended; it is owed back to the customer.`;
    default:
      return e.type;
  }
}

/** A refund's entry is about the refund: the payment's status beside it ("Successful ·") would read as the refund's. */
function metaOf(e: Event): string {
  if (e.type === "refund_due") return "Arrived late";
  if (e.type.startsWith("refund_")) return "Refund";
  return STATUS_LABEL[e.status as keyof typeof STATUS_LABEL] ?? e.status;
}

export function Timeline({ events, providerLog = [] }: { events: Event[]; providerLog?: ProviderEntry[] }) {
  // Events and the provider's notices and requeries, in the order they happened.
  const items = [
    ...events.map((e) => ({
      key: `e${e.sequence}`,
      at: e.createdAt,
      text: describe(e),
      meta: metaOf(e),
      dot: styles[`dot_${e.status}`],
    })),
    ...providerLog.map((n, i) => ({
      key: `p${i}`,
      at: n.receivedAt,
      text: describeProvider(n),
      meta: n.source === "requery" ? "Requery" : "Provider notice",
      dot: undefined,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <section className="card">
      <h2>Timeline</h2>
      <ol className={styles.timeline} data-testid="timeline">
        {items.map((item) => (
          <li key={item.key} className={item.dot}>
            <span className={styles.eventText}>{item.text}</span>
            <span className={styles.eventMeta}>
              {item.meta} · {lagosDateTime(item.at)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
