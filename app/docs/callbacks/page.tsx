import type { Metadata } from "next";
import type { PublishedEvent } from "@/server/payments/events";
import { callbackExample } from "@/server/openapi/callback-examples";
import { asJson, CodeBlock } from "../code-block";
import styles from "../docs.module.css";
import { exampleFile } from "../examples";

export const metadata: Metadata = { title: "Callbacks" };

const EVENTS = {
  "payment.successful": "The money reached the amount (status SUCCESSFUL, code 00). amountPaid may exceed amount: overpaid.",
  "payment.partially_paid": "A transfer short of the amount arrived (PARTIALLY_PAID); more may follow until expiresAt.",
  "payment.failed": "The customer's bank declined the USSD debit (FAILED).",
  "payment.expired": "expiresAt passed before the amount arrived (EXPIRED), from PENDING or PARTIALLY_PAID.",
  "payment.cancelled": "You cancelled the payment while it was PENDING (CANCELLED, code S13). Money that still arrives is refund due.",
  "refund.processed": "A refund you asked for was paid back to the customer. data.refund says which; amountRefunded counts it. Status, code and amountToRefund do not move.",
  "refund.failed": "The provider could not pay a refund back. data.refund.status is FAILED; its amount is refundable again.",
  "refund.needs_attention":
    "The provider cannot pay a refund back without the customer's bank account (status NEEDS_ATTENTION; it still counts against what is refundable). Give the account (POST …/refunds/{refundReference}/account) or give the refund up (…/cancel).",
  "payment.refund_due": "Money arrived after the payment closed. It is added to amountToRefund; status and amountPaid do not move.",
} satisfies Record<PublishedEvent, string>;

const HEADERS = [
  ["webhook-id", "The eventId: the same on every retry and for every destination. Dedupe on it."],
  ["webhook-timestamp", "Unix seconds of this attempt. Refuse anything more than 5 minutes off (the libraries do)."],
  ["webhook-signature", 'v1,<base64 HMAC-SHA256 of "id.timestamp.body"> keyed with your signing secret; two, space-separated, while a rolled secret\'s grace period runs.'],
] as const;

export default function CallbacksPage() {
  return (
    <>
      <h1>Callbacks</h1>
      <p className={styles.lede}>
        Each event of a payment is POSTed, signed, to the payment&apos;s <code>callbackUrl</code> and to every enabled webhook endpoint
        of your account (Developers page).
      </p>

      <h2>Events</h2>
      <table>
        <thead>
          <tr>
            <th>data.event</th>
            <th>when</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(EVENTS).map(([event, when]) => (
            <tr key={event}>
              <td>
                <code>{event}</code>
              </td>
              <td>{when}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>The body</h2>
      <CodeBlock label="POST your callbackUrl" code={asJson(callbackExample)} />

      <h2>Events and sequence</h2>
      <p>
        <code>sequence</code> counts the payment&apos;s events from 1. The payment&apos;s first event is its initiation, which is not
        sent, so the first callback of a payment usually carries 2. Deliveries are retried independently, so a retry of an older event
        can land after a newer one: keep the highest <code>sequence</code> you have seen per <code>paymentReference</code> and drop
        anything lower. Retries and resends repeat the <code>eventId</code>: act on each eventId once.
      </p>
      <div className={styles.note}>
        A callback tells you to look; verification tells you what is true. Before you deliver goods, call{" "}
        <code>GET /api/v3/payments/query/{"{paymentReference}"}</code> and deliver only on code <code>00</code>.
      </div>

      <h2>Verify the signature</h2>
      <p>
        Owo signs with the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> scheme, so any of its published libraries
        verifies a callback. Your signing secret (<code>whsec_…</code>, one for test mode and one for live) is on the Developers page.
        Verify the body exactly as received, before parsing it.
      </p>
      <table>
        <thead>
          <tr>
            <th>header</th>
            <th>what</th>
          </tr>
        </thead>
        <tbody>
          {HEADERS.map(([name, what]) => (
            <tr key={name}>
              <td>
                <code>{name}</code>
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        In Node, with <code>npm install standardwebhooks</code>: this receiver verifies, drops repeats and stale events, and answers
        204. Owo&apos;s tests run it against a real Owo delivering real callbacks.
      </p>
      <CodeBlock label="callback-receiver.example.mjs" code={exampleFile("callback-receiver.example.mjs")} />

      <h2>Delivery and retries</h2>
      <ul>
        <li>A 2xx answer within 15 seconds is delivered. Answer first, work after.</li>
        <li>
          Anything else, 3xx included (redirects are never followed), is retried with exponential backoff and jitter: about 30 s, 2 min,
          10 min, 30 min, 1 h, then growing, over at least 72 hours. Then the delivery is failed.
        </li>
        <li>
          <code>410 Gone</code> from a webhook endpoint disables that endpoint; from a callbackUrl it ends that delivery.
        </li>
        <li>Deliveries survive restarts, and the dashboard shows each attempt and can send a delivery again (same eventId).</li>
        <li>
          Callbacks go only to public addresses: loopback, private and link-local addresses are refused at connect time. For local
          development, the operator can set <code>OWO_ALLOW_PRIVATE_CALLBACKS=1</code>.
        </li>
      </ul>
    </>
  );
}
