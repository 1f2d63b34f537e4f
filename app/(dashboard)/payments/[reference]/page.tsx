import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { dialQrCode } from "@/server/payments/dial-code";
import { can } from "@/server/auth/permissions";
import { signedInPage } from "@/server/trpc/page-caller";
import { PaymentLive } from "./payment-live";

type Params = Promise<{ reference: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Payment ${(await params).reference}` };
}

export default async function PaymentPage({ params, searchParams }: { params: Params; searchParams: Promise<{ created?: string }> }) {
  const { reference } = await params;
  const { api, caller } = await signedInPage();
  const detail = await api.payments.byReference({ paymentReference: reference }).catch((e: unknown) => {
    // Someone else's payment, a mistyped or an impossible reference all read as "no such payment".
    if (e instanceof TRPCError && (e.code === "NOT_FOUND" || e.code === "BAD_REQUEST")) notFound();
    throw e;
  });
  const qr = detail.issued?.paymentType === "USSD" ? await dialQrCode(detail.issued.dialCode) : null;
  return (
    <PaymentLive
      initial={detail}
      qr={qr}
      canAct={can(caller, "change")}
      canMoveMoney={can(caller, "payments.moneyBack")}
      renderedAt={Date.now()}
      justCreated={(await searchParams).created === "1"}
    />
  );
}
