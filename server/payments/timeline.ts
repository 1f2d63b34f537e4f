// One payment as the merchant sees it: verify's view, what was issued to the customer, and its timeline of events.
import { asc, eq } from "drizzle-orm";
import { readSnapshot, type Db } from "../../db/client";
import { paymentEvents, type Mode, type PaymentRow } from "../../db/schema";
import { bankByCode } from "../providers/banks";
import { providerNoticesOf } from "../providers/notice-log";
import { refundsAt } from "../providers/refunding";
import { telLink } from "./dial-code";
import { checkoutUrl } from "./initiate-answer";
import { expireIfOverdue } from "./lifecycle";
import { formatKobo } from "../money";
import { findPayment } from "./lookup";
import { refundableKobo } from "./refunds";
import { refundsOf } from "./refund-views";
import { paymentView } from "./verify";
import { paymentState } from "./state";
import { clock } from "../clock";
import { paymentBooks } from "../books/payment-books";
import type { Scope } from "../merchants/scope";

const iso = (ms: number) => new Date(ms).toISOString();

/** What the customer was given: a dial code at their bank, an account opened for this payment, or nothing yet (standard checkout). */
export function issuedTo(p: PaymentRow) {
  if (p.paymentType === null) return null;
  if (p.paymentType === "USSD") {
    const dialCode = p.dialCode ?? "";
    return {
      paymentType: "USSD" as const,
      dialCode,
      telLink: telLink(dialCode),
      bankName: (p.bankCode && bankByCode(p.bankCode)?.bankName) ?? p.bankCode ?? "",
      providerReference: p.providerReference ?? "",
    };
  }
  return {
    paymentType: "TRANSFER" as const,
    accountNumber: p.accountNumber ?? "",
    bankName: p.accountBankName ?? "",
    accountName: p.walletName ?? "",
  };
}

async function timelineOf(q: Db, paymentId: number) {
  return (await q.select().from(paymentEvents).where(eq(paymentEvents.paymentId, paymentId)).orderBy(asc(paymentEvents.sequence))).map(
    (e) => ({
      sequence: e.sequence,
      type: e.type,
      status: e.status,
      amount: e.amountKobo === null ? null : formatKobo(e.amountKobo),
      detail: JSON.parse(e.detailJson) as Record<string, unknown>,
      createdAt: iso(e.createdAt),
    }),
  );
}

/**
 * Like verify, never shows an open payment past its expiry. Its rows are read in one snapshot, so the payment's
 * amounts always agree with the refunds and timeline shown beside them.
 */
export async function paymentWithTimeline({ merchantId, mode }: Scope, paymentReference: string, now = clock.now()) {
  await expireIfOverdue(await findPayment({ merchantId, mode }, paymentReference), now);
  return readSnapshot(async (q) =>
    viewOf(q, await findPayment({ merchantId, mode }, paymentReference, q), merchantId, mode, paymentReference),
  );
}

async function viewOf(q: Db, p: PaymentRow, merchantId: string, mode: Mode, paymentReference: string) {
  return {
    payments: paymentView(p),
    /** What the state means (open, owed, refund due, what may be done next), for the dashboard to show as is. */
    state: paymentState(p, { refundableKobo: await refundableKobo(q, p), atProvider: await refundsAt(q, p) }),
    customers: { customerName: p.fullName, customerMobile: p.mobileNumber, customerEmail: p.email },
    issued: issuedTo(p),
    source: p.source,
    callbackUrl: p.callbackUrl,
    redirectUrl: p.redirectUrl,
    checkoutUrl: checkoutUrl(p.linkingReference),
    timeline: await timelineOf(q, p.id),
    /** Who issued it and what its provider said and was asked (live payments). */
    provider: { name: p.provider, providerId: p.providerAccountId, providerReference: p.providerReference, requeries: p.requeryCount },
    providerLog:
      p.providerAccountId === null
        ? []
        : (await providerNoticesOf(q, { merchantId, mode }, paymentReference)).map((n) => ({ ...n, receivedAt: iso(n.receivedAt) })),
    refunds: await refundsOf(q, p.id),
    /** Its fees, what the merchant keeps of it, and its ledger entries (server/books). */
    books: await paymentBooks(q, p.id),
  };
}
export type PaymentWithTimeline = Awaited<ReturnType<typeof paymentWithTimeline>>;
