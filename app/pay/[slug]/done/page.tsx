import type { Metadata } from "next";
import { ApiError } from "@/server/api-error";
import { payPage } from "@/server/links/pay";
import styles from "../pay.module.css";

export const metadata: Metadata = { title: "Payment status", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<{ status?: string; paymentReference?: string }> };

const OUTCOME: Record<string, { mark: string; tone: "good" | "bad" | "wait"; heading: string; text: string }> = {
  SUCCESSFUL: { mark: "✓", tone: "good", heading: "Payment received", text: "Thank you. The merchant has been told; keep the reference below for your records." },
  FAILED: { mark: "!", tone: "bad", heading: "Payment failed", text: "Your bank declined the payment and no money was taken. You can try again." },
  CANCELLED: { mark: "!", tone: "bad", heading: "Payment cancelled", text: "The merchant cancelled this payment. If money left your account it will be refunded." },
  EXPIRED: { mark: "!", tone: "bad", heading: "Payment timed out", text: "The time to pay ran out. If money left your account it will be refunded; you can start again." },
};

/** Where a link's customers land when neither the link nor the merchant names a redirect URL. */
export default async function PayDonePage({ params, searchParams }: Props) {
  const { slug } = await params;
  const { status = "", paymentReference } = await searchParams;
  let title: string | null = null;
  try {
    title = payPage(slug).title;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
  const outcome = OUTCOME[status] ?? { mark: "…", tone: "wait", heading: "Payment not finished yet", text: "If you have paid, the merchant will be told as soon as your bank confirms it." };
  return (
    <main className={styles.page}>
      <div className={`${styles.card} ${styles.notice}`}>
        <p className={`${styles.mark} ${styles[outcome.tone]}`} aria-hidden>
          {outcome.mark}
        </p>
        <h1>{outcome.heading}</h1>
        {title && <p className={styles.merchant}>{title}</p>}
        <p className="muted">{outcome.text}</p>
        {paymentReference && (
          <p>
            Reference: <code>{paymentReference}</code>
          </p>
        )}
        {title && status !== "SUCCESSFUL" && <a href={`/pay/${slug}`}>Back to the payment page</a>}
      </div>
    </main>
  );
}
