import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { dialQrCode } from "@/server/payments/dial-code";
import { pageCaller } from "@/server/trpc/page-caller";
import { CheckoutLive } from "./checkout-live";
import styles from "./checkout.module.css";

type Params = Promise<{ linkingReference: string }>;

export const metadata: Metadata = { title: "Checkout", robots: { index: false, follow: false } };

export default async function CheckoutPage({ params }: { params: Params }) {
  const { linkingReference } = await params;
  // The front has already held this page request to the per-IP limit; the caller below is in-process.
  const { api } = await pageCaller();
  const view = await api.checkout.status({ linkingReference }).catch((e: unknown) => {
    if (e instanceof TRPCError && (e.code === "NOT_FOUND" || e.code === "BAD_REQUEST")) notFound();
    throw e;
  });
  const qr = view.issued?.paymentType === "USSD" && view.open ? await dialQrCode(view.issued.dialCode) : null;
  return (
    <main className={styles.screen}>
      <CheckoutLive initial={view} qr={qr} renderedAt={Date.now()} />
    </main>
  );
}
