// The hosted checkout's view of a payment, by its linkingReference: only what the paying customer may see.
import { eq } from "drizzle-orm";
import { db } from "../../db/client";
import { merchants, paymentLinks, payments, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";
import { customerColumns, forCustomers } from "../merchants/business-profile";
import { expireIfOverdue } from "./lifecycle";
import { formatKobo } from "../money";
import { issuedTo } from "./timeline";
import { channelOffer } from "./standard-checkout";
import { moneyBack, paymentState } from "./state";
import { owedBackKobo } from "../books/payment-books";
import { clock } from "../clock";

/** Where the customer's browser goes once the payment has ended (API.md: `redirectUrl?paymentReference=…&status=…`). */
export function returnUrl(p: PaymentRow): string | null {
  // A standard checkout sent with neither callbackUrl nor redirectUrl has nowhere to return to.
  if (p.redirectUrl === "") return null;
  const url = new URL(p.redirectUrl);
  url.searchParams.set("paymentReference", p.paymentReference);
  url.searchParams.set("status", p.status);
  return url.toString();
}

/**
 * The payment's status as of now, as its checkout shows it: like verify, it first expires an overdue payment (a write).
 * No customer's e-mail or phone, no URLs of the merchant's systems: the link may be forwarded, screenshotted or shared.
 * The merchant's support contact is there on purpose: the business profile publishes it for its customers.
 */
export async function checkoutStatus(linkingReference: string, now = clock.now()) {
  const [found] = await db()
    .select({
      payment: payments,
      merchantName: merchants.name,
      business: customerColumns(),
      linkTitle: paymentLinks.title,
      linkDescription: paymentLinks.description,
    })
    .from(payments)
    .innerJoin(merchants, eq(merchants.id, payments.merchantId))
    .leftJoin(paymentLinks, eq(paymentLinks.id, payments.linkId))
    .where(eq(payments.linkingReference, linkingReference));
  if (!found) throw new ApiError("S404", "No such checkout: check the link you were given");
  const p = await expireIfOverdue(found.payment, now);
  const { open, amountDue, somethingPaid } = paymentState(p);
  return {
    merchantName: found.merchantName,
    /** The merchant's logo and support contact: published by the merchant for its customers. */
    business: forCustomers(found.business),
    /** What the customer is paying for, when they came through a payment link: its title and description. */
    link: found.linkTitle === null ? null : { title: found.linkTitle, description: found.linkDescription ?? "" },
    paymentReference: p.paymentReference,
    linkingReference: p.linkingReference,
    mode: p.mode,
    status: p.status,
    open,
    amount: formatKobo(p.amountKobo),
    amountPaid: formatKobo(p.amountPaidKobo),
    amountDue,
    somethingPaid,
    /** Refunds the customer got back, of what paid for it and of money sent after it had ended. */
    ...moneyBack(p, p.amountToRefundKobo > 0 ? await owedBackKobo(p.id) : 0),
    expiresAt: new Date(p.expiresAt).toISOString(),
    paidAt: p.status === "SUCCESSFUL" && p.paidAt !== null ? new Date(p.paidAt).toISOString() : null,
    issued: issuedTo(p),
    /** A standard-checkout payment still open without a channel: what the customer may choose from. */
    offer: open && p.paymentType === null ? await channelOffer(p) : null,
    returnUrl: open ? null : returnUrl(p),
  };
}
export type CheckoutStatus = Awaited<ReturnType<typeof checkoutStatus>>;
