import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { linkPaymentOutcome } from "@/server/links/pay";
import type { PaymentStatus } from "@/db/schema";
import { lagosDateTime, naira } from "@/app/payment-display";
import { BusinessMark, SupportContact } from "@/app/business-identity";
import styles from "../pay.module.css";

export const metadata: Metadata = { title: "Payment status", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<{ paymentReference?: string | string[] }> };
type Outcome = { mark: string; tone: "good" | "bad" | "wait"; heading: string; text: string };

const WAITING: Outcome = {
  mark: "…",
  tone: "wait",
  heading: "Payment not finished yet",
  text: "If you have paid, the merchant will be told as soon as your bank confirms it.",
};
const OUTCOME: Partial<Record<PaymentStatus, Outcome>> = {
  SUCCESSFUL: {
    mark: "✓",
    tone: "good",
    heading: "Payment received",
    text: "Thank you. The merchant has been told; keep the reference below for your records.",
  },
  FAILED: {
    mark: "!",
    tone: "bad",
    heading: "Payment failed",
    text: "Your bank declined the payment and no money was taken. You can try again.",
  },
  EXPIRED: {
    mark: "!",
    tone: "bad",
    heading: "Payment timed out",
    text: "The time to pay ran out. If money left your account it will be refunded; you can start again.",
  },
  CANCELLED: {
    mark: "!",
    tone: "bad",
    heading: "Payment cancelled",
    text: "The merchant cancelled this payment. If money left your account it will be refunded.",
  },
};

/**
 * Where a link's customers land when neither the link nor the merchant names a redirect URL. What it says comes from
 * Owo's own record of that payment of that link; the `status` in the query string is ignored (anyone can type one).
 */
export default async function PayDonePage({ params, searchParams }: Props) {
  const { slug } = await params;
  const { paymentReference } = await searchParams;
  const payment = await linkPaymentOutcome(slug, typeof paymentReference === "string" ? paymentReference : "");
  if (!payment) notFound();
  const outcome = OUTCOME[payment.status] ?? WAITING;
  return (
    <main className={styles.page}>
      <div className={`${styles.card} ${styles.notice}`}>
        <p className={`${styles.mark} ${styles[outcome.tone]}`} aria-hidden>
          {outcome.mark}
        </p>
        <BusinessMark name={payment.merchantName} logoUrl={payment.business.logoUrl} className={styles.doneMark} />
        <h1>{outcome.heading}</h1>
        <p className={styles.merchant}>{payment.title}</p>
        <p className="muted">{outcome.text}</p>
        {/* The same facts as the checkout's receipt: what was paid, to whom, when, and the reference to keep. */}
        <dl className={styles.facts} data-testid="done-facts">
          <dt>{payment.status === "SUCCESSFUL" ? "Paid" : "Amount"}</dt>
          <dd>{naira(payment.status === "SUCCESSFUL" ? payment.amountPaid : payment.amount)}</dd>
          <dt>To</dt>
          <dd>{payment.merchantName}</dd>
          <dt>Reference</dt>
          <dd className="mono">{payment.paymentReference}</dd>
          {payment.paidAt && (
            <>
              <dt>Date</dt>
              <dd>{lagosDateTime(payment.paidAt)}</dd>
            </>
          )}
        </dl>
        {payment.status !== "SUCCESSFUL" && <a href={`/pay/${payment.slug}`}>Back to the payment page</a>}
        <SupportContact business={payment.business} />
      </div>
    </main>
  );
}
