// Verification (API.md "Verify"): the payment as it stands, never an open one past its expiry.
import type { PaymentRow } from "../../db/schema";
import { expireIfOverdue } from "./lifecycle";
import { findPayment } from "./lookup";
import { formatKobo } from "../money";
import { STATUS_ANSWER } from "./status";
import { clock } from "../clock";
import { requeryIfStale } from "./requery";
import type { Scope } from "../merchants/scope";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Verify's `payments` object; the sandbox simulator and the dashboard show the same. */
export function paymentView(p: PaymentRow) {
  return {
    paymentReference: p.paymentReference,
    linkingReference: p.linkingReference,
    paymentType: p.paymentType,
    status: p.status,
    amount: formatKobo(p.amountKobo),
    amountPaid: formatKobo(p.amountPaidKobo),
    amountToRefund: formatKobo(p.amountToRefundKobo),
    amountRefunded: formatKobo(p.amountRefundedKobo),
    currency: p.currency,
    country: p.country,
    mode: p.mode,
    gatewayMessage: STATUS_ANSWER[p.status].message,
    gatewayCode: STATUS_ANSWER[p.status].code,
    // Nobody has issued anything for a standard-checkout payment whose customer has not chosen a channel.
    provider: p.paymentType === null ? null : p.provider,
    feeAmount: formatKobo(p.feeKobo),
    settlementId: p.settlementId,
    createdAt: iso(p.createdAt),
    paidAt: p.status === "SUCCESSFUL" ? iso(p.paidAt) : null,
    expiresAt: iso(p.expiresAt),
    updatedAt: iso(p.updatedAt),
  };
}

export type VerifyData = {
  code: string;
  message: string;
  payments: Awaited<ReturnType<typeof paymentView>>;
  customers: { customerName: string; customerMobile: string; customerEmail: string };
};

export async function verifyPayment(scope: Scope, paymentReference: string, now = clock.now()): Promise<VerifyData> {
  return verifyAnswer(await expireIfOverdue(await findPayment(scope, paymentReference), now));
}

/**
 * What the merchant's verify answers: a live payment whose provider last answered over 30 s ago is asked again first
 * (bounded by OWO_PROVIDER_TIMEOUT_MS; no answer leaves the stored state, never an error).
 */
export async function verifyPaymentNow(scope: Scope, paymentReference: string): Promise<VerifyData> {
  const p = await findPayment(scope, paymentReference);
  // Read again only when the provider was asked: its answer may have moved the payment (the hot path reads once).
  if (await requeryIfStale(p)) return verifyPayment(scope, paymentReference);
  return verifyAnswer(await expireIfOverdue(p, clock.now()));
}

/** Verify's `data` for a payment as it stands; also the answer to a cancel. */
export function verifyAnswer(p: PaymentRow): VerifyData {
  return {
    ...STATUS_ANSWER[p.status],
    payments: paymentView(p),
    customers: { customerName: p.fullName, customerMobile: p.mobileNumber, customerEmail: p.email },
  };
}
