import type { Metadata } from "next";
import { refundCallbackExample } from "@/server/openapi/callback-examples";
import {
  cancelAnswerExample,
  refundAccountAnswerExample,
  refundAccountRequestExample,
  refundAnswerExample,
  refundRequestExample,
  refundStatusAnswerExample,
} from "@/server/openapi/examples";
import { SANDBOX_DECLINE_MARK, SANDBOX_LOST_NOTICE_MARK, SANDBOX_REFUND_MS } from "@/server/providers/sandbox/refunds";
import { AnswerBlock, asJson, CodeBlock } from "../code-block";
import styles from "../docs.module.css";

export const metadata: Metadata = { title: "Cancel and refunds" };

const RULES = [
  "Only a payment that is not PENDING or PARTIALLY_PAID can be refunded: SUCCESSFUL, FAILED, EXPIRED or CANCELLED, with money to give back.",
  "Refundable = amountPaid + amountToRefund − every refund PENDING, NEEDS_ATTENTION or PROCESSED. A FAILED refund frees its amount.",
  "Leave amount out to refund all that is refundable. Asking for more is 409 S15, and so is a provider that cannot refund the payment (refund it at the provider).",
  "Send a refundReference of your own and retry safely: the same one again answers the first refund again, whatever its state now.",
  "Racing requests never refund more than arrived: what is refundable is checked and reserved in one step.",
  "Refunds never change the payment's status, code or amountToRefund; amountRefunded (verify and callbacks) sums the PROCESSED ones.",
];

export default function RefundsPage() {
  return (
    <>
      <h1>Cancel and refunds</h1>
      <p className={styles.lede}>
        Call off a payment nobody has paid yet, or give money back once a payment has ended. API tokens may do both; in the dashboard,
        owners and admins (the buttons on a payment&apos;s page).
      </p>

      <h2>Cancel a pending payment</h2>
      <CodeBlock label="POST /api/v2/payments/{paymentReference}/cancel" code="Authorization: Bearer <token>   (no body)" />
      <AnswerBlock value={cancelAnswerExample} />
      <p>
        Only a PENDING payment can be cancelled; anything else is <code>409 S15</code>. No provider voids these charges, so cancelling stops
        Owo from crediting the payment: money that still arrives is added to <code>amountToRefund</code> (callback{" "}
        <code>payment.refund_due</code>) and you refund it as below. Your callback receives <code>payment.cancelled</code>.
      </p>

      <h2>Refund</h2>
      <CodeBlock label="POST /api/v2/payments/{paymentReference}/refunds" code={asJson(refundRequestExample)} />
      <AnswerBlock value={refundAnswerExample} />
      <ul>
        {RULES.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
      <p>
        The answer is always <code>PENDING</code>: the provider that took the money pays it back, and Owo follows the refund there (its
        refund notices, and asking it on a schedule) until it is PROCESSED or FAILED. Then your callback receives{" "}
        <code>refund.processed</code> or <code>refund.failed</code>, with <code>data.refund</code> ={" "}
        <code>{"{refundReference, amount, status, reason}"}</code>.
      </p>
      <p>
        Providers take refunds without an idempotency key, so Owo never risks paying one back twice. A refund that certainly never reached
        the provider (its address refused the connection) is sent again, and ends FAILED after repeated tries. One that may have reached it
        (no answer in time, a 5xx, a dropped connection) is never sent again until the provider&apos;s own list of refunds shows it has none,
        and is never failed by Owo alone: it stays <code>PENDING</code>, and the payment page says &ldquo;the provider did not answer; check
        at the provider&rdquo; until the provider&apos;s list, notice or record settles it.
      </p>
      <CodeBlock label="POST your callbackUrl (refund.processed)" code={asJson(refundCallbackExample)} />
      <h2>How one refund stands</h2>
      <CodeBlock label="GET /api/v2/payments/{paymentReference}/refunds/{refundReference}" code="Authorization: Bearer <token>" />
      <AnswerBlock value={refundStatusAnswerExample} />
      <p>
        The refund as it stands now: <code>PENDING</code>, <code>NEEDS_ATTENTION</code>, <code>PROCESSED</code> or <code>FAILED</code>. No
        such payment or refund:{" "}
        <code>404 S404</code>. An Owo that uses another Owo as its SeerBit provider asks this before it believes a refund notice, since
        SeerBit&apos;s notices are unsigned.
      </p>
      <h2>A refund that needs the customer&apos;s account</h2>
      <p>
        A provider cannot always pay a refund back by itself: a USSD debit or a transfer has no card to return to, and Paystack then marks
        the refund <code>needs-attention</code>. Owo shows it <code>NEEDS_ATTENTION</code> and your callback receives{" "}
        <code>refund.needs_attention</code>; it still counts against what is refundable. Give the customer&apos;s account (a bank from the
        provider&apos;s own list, so OPay and Moniepoint count, and a 10-digit NUBAN): Owo sends the refund to the provider again with it,
        and once the provider took it the refund is <code>PENDING</code> again. Or give the refund up with{" "}
        <code>POST …/refunds/{"{refundReference}"}/cancel</code>: it becomes <code>FAILED</code> and frees its amount. Owo keeps asking
        the provider how it stands meanwhile, so an account you gave on the provider&apos;s own dashboard moves it too.
      </p>
      <CodeBlock
        label="POST /api/v2/payments/{paymentReference}/refunds/{refundReference}/account"
        code={asJson(refundAccountRequestExample)}
      />
      <AnswerBlock value={refundAccountAnswerExample} />
      <p>
        Over tRPC: <code>payments.cancel({"{paymentReference}"})</code> and{" "}
        <code>payments.refund({"{paymentReference, amount?, reason, refundReference?}"})</code>, with the same answers;{" "}
        <code>payments.byReference</code> lists the payment&apos;s refunds and what is still refundable;{" "}
        <code>payments.refundBanks</code>, <code>payments.refundAccount</code> and <code>payments.cancelRefund</code> serve a refund that
        needs the customer&apos;s account.
      </p>

      <h2>In test mode</h2>
      <p>
        The sandbox bank pays a refund back about {SANDBOX_REFUND_MS / 1000} s after you ask and then tells Owo with a signed notice, as a
        real provider would. To see a refund fail, put <code>{SANDBOX_DECLINE_MARK}</code> in its reason: the customer&apos;s bank refuses
        it, the refund ends FAILED and its amount is refundable again. To see Owo follow a refund whose notice never came, put{" "}
        <code>{SANDBOX_LOST_NOTICE_MARK}</code> in its reason: the bank pays it back but its notice is lost, and Owo settles the refund
        when it next asks the bank (a pending refund is asked about on a schedule).
      </p>
    </>
  );
}
