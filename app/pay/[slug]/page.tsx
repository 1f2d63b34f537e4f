import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ApiError } from "@/server/api-error";
import { payPage, type PayPage } from "@/server/links/pay";
import { naira } from "@/app/payment-display";
import { BusinessMark, SupportContact } from "@/app/business-identity";
import { PayForm } from "./pay-form";
import styles from "./pay.module.css";

// Every visit reads the link as it stands: a single-use link may have been paid a second ago.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ slug: string }> };

async function load(slug: string): Promise<PayPage | null> {
  try {
    return await payPage(slug);
  } catch (e) {
    if (e instanceof ApiError && e.code === "S404") return null;
    throw e;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const link = await load((await params).slug);
  return { title: link ? `${link.title} · ${link.merchantName}` : "Payment link not found", robots: { index: false } };
}

export default async function PayLinkPage({ params }: Params) {
  const link = await load((await params).slug);
  if (!link) notFound();
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        {link.mode === "test" && <p className={styles.testBanner}>Test mode: no real money moves.</p>}
        <BusinessMark name={link.merchantName} logoUrl={link.business.logoUrl} className={styles.merchant} />
        <h1 className={styles.title}>{link.title}</h1>
        {link.description && <p className={styles.description}>{link.description}</p>}
        {link.amount ? (
          <p className={styles.amount} data-testid="link-amount">
            {naira(link.amount)}
          </p>
        ) : (
          link.minAmount &&
          link.maxAmount && (
            <p className={styles.hint}>
              Enter any amount from {naira(link.minAmount)} to {naira(link.maxAmount)}.
            </p>
          )
        )}
        {link.state === "accepting" ? (
          <PayForm
            slug={link.slug}
            amountLabel={link.amount ? naira(link.amount) : null}
            range={link.amount || !link.minAmount || !link.maxAmount ? null : { min: link.minAmount, max: link.maxAmount }}
            channels={link.channels}
            banks={link.banks}
          />
        ) : (
          <p role="status" className={styles.notice}>
            {link.state === "used"
              ? "This payment link has already been paid. Contact the merchant if you believe this is wrong."
              : "Someone is paying this link right now. If that payment is not completed, the link opens again in a few minutes."}
          </p>
        )}
        <SupportContact business={link.business} />
      </div>
      <p className={styles.footer}>
        Secured by <strong>Owo</strong> · USSD and bank transfer
      </p>
    </main>
  );
}
