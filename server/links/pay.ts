// The customer's side of a payment link: what /pay/<slug> shows, and paying through the one initiation service.
import { randomInt } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { db, type Tx } from "../../db/client";
import { merchants, paymentLinks, payments, type PaymentStatus } from "../../db/schema";
import { ApiError, type FieldError } from "../api-error";
import { initiatePayment } from "../payments/initiate";
import { initiateError, parseInitiateRequest, PAYMENT_TYPES, type InitiateRequest, type PaymentType } from "../payments/initiate-schema";
import { formatKobo, parseAmount } from "../money";
import { ussdBanks } from "../providers/banks";
import { linkChannels, linkState, type LinkRow, type LinkState } from "./links";
import { clock } from "../clock";
import { asCustomerSees } from "../payments/customer-answers";
import { customerColumns, forCustomers, type ForCustomers } from "../merchants/business-profile";

export type PayPage = {
  slug: string;
  title: string;
  description: string;
  merchantName: string;
  business: ForCustomers;
  mode: LinkRow["mode"];
  amount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  channels: PaymentType[];
  banks: { bankCode: string; bankName: string }[];
  state: LinkState;
};

export type LinkPayment = { paymentReference: string; linkingReference: string; checkoutUrl: string };

const NO_SUCH_LINK = "This payment link does not exist or is no longer active";

async function activeLink(slug: string): Promise<LinkRow & { merchantName: string; business: ForCustomers }> {
  const [found] = await db()
    .select({ link: paymentLinks, merchantName: merchants.name, business: customerColumns() })
    .from(paymentLinks)
    .innerJoin(merchants, eq(merchants.id, paymentLinks.merchantId))
    .where(eq(paymentLinks.slug, slug));
  if (!found?.link.active) throw new ApiError("S404", NO_SUCH_LINK);
  return { ...found.link, merchantName: found.merchantName, business: forCustomers(found.business) };
}

/** Unknown and inactive links are both "not found": a deactivated link should look gone. */
export async function payPage(slug: string, now = clock.now()): Promise<PayPage> {
  const link = await activeLink(slug);
  const channels = linkChannels(link);
  const amount = (k: number | null) => (k === null ? null : formatKobo(k));
  return {
    slug: link.slug,
    title: link.title,
    description: link.description,
    merchantName: link.merchantName,
    business: link.business,
    mode: link.mode,
    amount: amount(link.amountKobo),
    minAmount: amount(link.minKobo),
    maxAmount: amount(link.maxKobo),
    channels,
    banks: channels.includes("USSD") ? ussdBanks.map((b) => ({ bankCode: b.bankCode, bankName: b.bankName })) : [],
    state: await linkState(db(), link, now),
  };
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : v);

/** What the link itself rules out: a channel it does not offer, an amount outside its range. */
function linkFieldErrors(link: LinkRow, form: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const type = form.paymentType;
  if (PAYMENT_TYPES.includes(type as PaymentType) && !linkChannels(link).includes(type as PaymentType)) {
    errors.push({ field: "paymentType", message: `is not offered by this link; choose ${linkChannels(link).join(" or ")}` });
  }
  // The page's select lists these banks; a customer who skipped it is told so in their words, not the API's.
  if (type === "USSD" && linkChannels(link).includes("USSD") && !ussdBanks.some((b) => b.bankCode === form.bankCode)) {
    errors.push({ field: "bankCode", message: "is needed for USSD: choose the bank you will dial from" });
  }
  const kobo = parseAmount(text(form.amount));
  if (
    link.amountKobo === null &&
    kobo !== null &&
    link.minKobo !== null &&
    link.maxKobo !== null &&
    (kobo < link.minKobo || kobo > link.maxKobo)
  ) {
    errors.push({ field: "amount", message: `must be from ${formatKobo(link.minKobo)} to ${formatKobo(link.maxKobo)} for this link` });
  }
  return errors;
}

/**
 * Initiates a payment for a link's customer through the same initiation service and checks as
 * the API (source "link"). One transaction with the single-use check, so two customers racing
 * on a single-use link cannot both start paying.
 */
export async function payByLink(slug: string, form: Record<string, unknown>, now = clock.now()): Promise<LinkPayment> {
  return asCustomerSees(() => payLinkNow(slug, form, now));
}

async function payLinkNow(slug: string, form: Record<string, unknown>, now: number): Promise<LinkPayment> {
  const link = await activeLink(slug);
  const paymentType = text(form.paymentType);
  const raw = {
    fullName: form.fullName,
    email: text(form.email),
    // People write phone numbers with spaces and dashes; the API's rule is about the digits.
    mobileNumber: typeof form.mobileNumber === "string" ? form.mobileNumber.replace(/[\s-]/g, "") : form.mobileNumber,
    amount: link.amountKobo === null ? text(form.amount) : formatKobo(link.amountKobo),
    currency: "NGN",
    country: "NG",
    paymentReference: `lnk-${link.slug}-${randomInt(36 ** 6)
      .toString(36)
      .padStart(6, "0")}`,
    callbackUrl: link.callbackUrl,
    redirectUrl: link.redirectUrl,
    paymentType,
    bankCode: paymentType === "USSD" ? text(form.bankCode) || undefined : undefined,
  };
  const errors = linkFieldErrors(link, raw);
  let request: InitiateRequest | null = null;
  try {
    request = parseInitiateRequest(raw, { publicKey: false });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    errors.push(...e.errors.filter((f) => !errors.some((mine) => mine.field === f.field)));
  }
  if (errors.length || !request) throw initiateError(errors, paymentType);
  const accepted = request;
  // The single-use check runs in the reservation's transaction: the reserved payment counts as in progress at once,
  // so two customers racing on a single-use link cannot both start paying.
  const guard = async (tx: Tx) => {
    // Read again under the write lock: the link may have been deactivated or paid meanwhile.
    const fresh = (await tx.select().from(paymentLinks).where(eq(paymentLinks.id, link.id)))[0] ?? link;
    const state = await linkState(tx, fresh, now);
    if (state === "inactive") throw new ApiError("S404", NO_SUCH_LINK);
    if (state === "used") throw new ApiError("S3", "This single-use link has already been paid");
    if (state === "busy")
      throw new ApiError(
        "S3",
        "A payment on this single-use link is in progress; if it is not completed, the link opens again when it expires",
      );
  };
  const { payments } = await initiatePayment(accepted, {
    merchantId: link.merchantId,
    mode: link.mode,
    source: "link",
    linkId: link.id,
    now,
    guard,
  });
  return { paymentReference: payments.paymentReference, linkingReference: payments.linkingReference, checkoutUrl: payments.checkoutUrl };
}

export type LinkPaymentOutcome = {
  title: string;
  slug: string;
  merchantName: string;
  business: ForCustomers;
  paymentReference: string;
  status: PaymentStatus;
  amount: string;
  amountPaid: string;
  /** When it was paid in full; null unless SUCCESSFUL. */
  paidAt: string | null;
};

/**
 * What Owo's own record says about one payment made through this link: the done page shows this, never the status
 * in its query string (anyone can type `?status=SUCCESSFUL`). Null when the slug or the reference is not one of
 * this link's payments. A link deactivated since still shows its customers' outcomes.
 */
export async function linkPaymentOutcome(slug: string, paymentReference: string): Promise<LinkPaymentOutcome | null> {
  if (!paymentReference) return null;
  const [found] = await db()
    .select({
      title: paymentLinks.title,
      merchantName: merchants.name,
      business: customerColumns(),
      status: payments.status,
      amountKobo: payments.amountKobo,
      amountPaidKobo: payments.amountPaidKobo,
      paidAt: payments.paidAt,
    })
    .from(payments)
    .innerJoin(paymentLinks, eq(paymentLinks.id, payments.linkId))
    .innerJoin(merchants, eq(merchants.id, payments.merchantId))
    .where(and(eq(paymentLinks.slug, slug), eq(payments.paymentReference, paymentReference)));
  if (!found) return null;
  return {
    title: found.title,
    slug,
    merchantName: found.merchantName,
    business: forCustomers(found.business),
    paymentReference,
    status: found.status,
    amount: formatKobo(found.amountKobo),
    amountPaid: formatKobo(found.amountPaidKobo),
    paidAt: found.status === "SUCCESSFUL" && found.paidAt !== null ? new Date(found.paidAt).toISOString() : null,
  };
}
