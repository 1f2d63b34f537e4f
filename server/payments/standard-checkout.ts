// Standard checkout (API.md "Standard checkout"): a payment made without a channel, whose customer chooses USSD (and
// their bank) or TRANSFER on Owo's hosted page; the choice is then issued by the same reserve → issue → record path
// as initiation (issue.ts), and from then on it is an ordinary payment of that channel.
import { fingerprintOf } from "./fingerprint";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, isNull } from "drizzle-orm";
import { db, write } from "../../db/client";
import { payments, type Mode, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import { bankByCode } from "../providers/banks";
import { merchantBanks } from "./merchant-banks";
import { settings } from "../settings";
import { asCustomerSees } from "./customer-answers";
import { recordEvent } from "./events";
import { newLinkingReference, type PaymentSource } from "./initiate";
import { checkoutUrl } from "./initiate-answer";
import { AMOUNT_LIMITS, type PaymentType } from "./initiate-schema";
import { issueReserved, reservationStaleAfterMs, type ChannelChoice } from "./issue";
import { expireIfOverdue } from "./lifecycle";
import { isOpen } from "./status";
import type { StandardCheckoutRequest } from "./standard-checkout-schema";
import { scopeOf } from "../merchants/scope";

/** SeerBit's "pending, awaiting the customer" payment status, as its clients read `paymentStatus`. */
const AWAITING_CUSTOMER = "08";

export type StandardCheckoutPayments = {
  redirectLink: string;
  paymentStatus: string;
  paymentReference: string;
  linkingReference: string;
  expiresAt: string;
};
export type StandardCheckoutResult = { payments: StandardCheckoutPayments; paymentsJson: string; replayed: boolean };

/** API.md idempotency: the same values in every field (amount as kobo); fields that are not stored do not count. */
const fingerprint = (req: StandardCheckoutRequest): string => fingerprintOf("STANDARD", req);

const answered = (paymentsJson: string, replayed: boolean): StandardCheckoutResult => ({
  payments: JSON.parse(paymentsJson) as StandardCheckoutPayments,
  paymentsJson,
  replayed,
});

/** Makes the payment (no channel, nothing issued yet) in one transaction, or replays the first answer. */
export async function createStandardCheckout(
  req: StandardCheckoutRequest,
  who: { merchantId: string; mode: Mode; source: PaymentSource },
): Promise<StandardCheckoutResult> {
  const now = clock.now();
  const print = fingerprint(req);
  return write(async (tx) => {
    const [used] = await tx
      .select({ fingerprint: payments.requestFingerprint, answerJson: payments.answerJson })
      .from(payments)
      .where(
        and(eq(payments.merchantId, who.merchantId), eq(payments.mode, who.mode), eq(payments.paymentReference, req.paymentReference)),
      );
    if (used) {
      if (used.fingerprint !== print) {
        throw new ApiError("S14", `paymentReference ${req.paymentReference} was already used with a different request`, [
          { field: "paymentReference", message: "is already used by another payment; send a new reference or the exact same request" },
        ]);
      }
      return answered(used.answerJson, true);
    }
    const linkingReference = await newLinkingReference(tx);
    const expiresAt = now + settings().transferTtlSeconds * 1000;
    const paymentsJson = JSON.stringify({
      redirectLink: checkoutUrl(linkingReference),
      paymentStatus: AWAITING_CUSTOMER,
      paymentReference: req.paymentReference,
      linkingReference,
      expiresAt: new Date(expiresAt).toISOString(),
    } satisfies StandardCheckoutPayments);
    const [row] = await tx
      .insert(payments)
      .values({
        merchantId: who.merchantId,
        mode: who.mode,
        paymentReference: req.paymentReference,
        linkingReference,
        paymentType: null,
        status: "PENDING",
        amountKobo: req.amount,
        currency: req.currency,
        country: req.country,
        fullName: req.fullName,
        mobileNumber: req.mobileNumber,
        email: req.email,
        callbackUrl: req.callbackUrl,
        redirectUrl: req.redirectUrl,
        requestFingerprint: print,
        answerJson: paymentsJson,
        source: who.source,
        createdAt: now,
        updatedAt: now,
        expiresAt,
      })
      .returning();
    if (!row) throw new Error("the checkout's insert returned no row");
    await recordEvent(tx, row, "initiated", now, { amountKobo: row.amountKobo, detail: { source: who.source, standardCheckout: true } });
    return answered(paymentsJson, false);
  });
}

export type ChannelRequest = { paymentType: PaymentType; bankCode?: string | null };

/** What the hosted page offers for a payment still without a channel: USSD (up to its limit) at these banks, and TRANSFER. */
export async function channelOffer(p: PaymentRow): Promise<{ ussdBanks: { bankCode: string; bankName: string }[] }> {
  if (p.amountKobo > AMOUNT_LIMITS.USSD.max) return { ussdBanks: [] };
  const served = (await merchantBanks(scopeOf(p))).filter((b) => b.supportsUssd);
  return { ussdBanks: served.map((b) => ({ bankCode: b.bankCode, bankName: b.bankName })) };
}

async function choiceFor(p: PaymentRow, request: ChannelRequest): Promise<ChannelChoice> {
  if (request.paymentType === "TRANSFER") return { channel: "TRANSFER" };
  if (p.amountKobo > AMOUNT_LIMITS.USSD.max) {
    throw new ApiError("S2", "USSD is offered only up to 1000000.00: pay this amount by bank transfer", [
      { field: "paymentType", message: "USSD is offered only up to 1000000.00" },
    ]);
  }
  const bank = bankByCode(request.bankCode ?? "");
  if (!bank || !(await channelOffer(p)).ussdBanks.some((b) => b.bankCode === bank.bankCode)) {
    throw new ApiError("S8", "Invalid bankCode: choose a bank that offers USSD for this shop", [
      { field: "bankCode", message: "is not a bank this shop can take USSD from" },
    ]);
  }
  return { channel: "USSD", bank };
}

type Claim = { kind: "chosen"; payment: PaymentRow } | { kind: "busy" } | { kind: "reserved"; payment: PaymentRow; choice: ChannelChoice };

/** One transaction: the payment is still open and without a channel, and this choice reserves it for issuing. */
async function reserveChoice(linkingReference: string, request: ChannelRequest, now: number): Promise<Claim> {
  const [found] = await db().select().from(payments).where(eq(payments.linkingReference, linkingReference));
  if (!found) throw new ApiError("S404", "No such checkout: check the link you were given");
  const p = await expireIfOverdue(found, now);
  return write(async (tx) => {
    const fresh = (await tx.select().from(payments).where(eq(payments.id, p.id)))[0] ?? p;
    if (fresh.paymentType !== null) {
      // A second tap of the same choice shows what the first one issued; another channel is refused.
      if (fresh.paymentType === request.paymentType && fresh.reservedAt === null) return { kind: "chosen", payment: fresh };
      throw new ApiError("S15", `This payment is already being paid by ${fresh.paymentType}`);
    }
    if (!isOpen(fresh.status)) throw new ApiError("S15", "This payment has ended; start again from the shop");
    if (fresh.reservedAt !== null && now - fresh.reservedAt < reservationStaleAfterMs()) return { kind: "busy" };
    const choice = await choiceFor(fresh, request);
    const [reserved] = await tx
      .update(payments)
      .set({ reservedAt: now })
      .where(and(eq(payments.id, fresh.id), isNull(payments.paymentType)))
      .returning();
    if (!reserved) throw new ApiError("S15", "This payment's channel was just chosen");
    // Choosing shortens the lifetime to the channel's own, never lengthens it (API.md); recorded with what is issued.
    const ttl = choice.channel === "USSD" ? settings().ussdTtlSeconds : settings().transferTtlSeconds;
    return { kind: "reserved", payment: { ...reserved, expiresAt: Math.min(reserved.expiresAt, now + ttl * 1000) }, choice };
  });
}

/** The customer's choice on the hosted page: issues the code or account for this same payment. */
export async function chooseChannel(linkingReference: string, request: ChannelRequest): Promise<PaymentRow> {
  return asCustomerSees(() => issueChoice(linkingReference, request));
}

async function issueChoice(linkingReference: string, request: ChannelRequest): Promise<PaymentRow> {
  for (;;) {
    const now = clock.now();
    const claim = await reserveChoice(linkingReference, request, now);
    if (claim.kind === "chosen") return claim.payment;
    if (claim.kind === "busy") {
      // Another tap is being issued right now: wait for it and show what it issued.
      await sleep(50);
      continue;
    }
    try {
      return await issueReserved(
        claim.payment,
        claim.choice,
        async (tx, issued) =>
          recordEvent(tx, issued, "channel_chosen", now, { detail: { paymentType: issued.paymentType, provider: issued.provider } }),
        now,
      );
    } catch (err) {
      // Nothing was issued: the payment stays as it was (already answered to the merchant, so never dropped).
      await write(async (tx) =>
        tx
          .update(payments)
          .set({ reservedAt: null })
          .where(and(eq(payments.id, claim.payment.id), isNull(payments.paymentType))),
      );
      throw err;
    }
  }
}
