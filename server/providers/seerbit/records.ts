// SeerBit's v2 JSON (the API Owo itself speaks: docs/API.md) in Owo's words. Amounts arrive as naira
// strings with two decimals and are read into kobo without a float.
import { z } from "zod";
import { parseAmount } from "../../payments/money";
import {
  NoticeRejected,
  ProviderRefused,
  ProviderUnavailable,
  type Channel,
  type Issued,
  type NoticeReading,
  type ProviderPaymentState,
  type RefundState,
} from "../connector";

const naira = z.string().transform((s, ctx) => parseAmount(s) ?? (ctx.addIssue({ code: "custom", message: "not naira" }), z.NEVER));
const instant = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), "must be a date")
  .transform((s) => Date.parse(s));
const ok = <T extends z.ZodType>(data: T) => z.object({ status: z.literal("SUCCESS"), data });
const refusedEnvelope = z.object({ status: z.literal("ERROR"), data: z.object({ code: z.string(), message: z.string() }) });

const token = ok(z.object({ code: z.literal("00"), EncryptedSecKey: z.object({ encryptedKey: z.string().min(1), expiresAt: instant }) }));
const ussd = ok(
  z.object({
    payments: z.object({
      linkingReference: z.string().min(1),
      ussdDailCode: z.string().regex(/^\*[0-9*]+#$/),
      expiresAt: instant.nullish(),
    }),
  }),
);
const transfer = ok(
  z.object({
    payments: z.object({
      linkingReference: z.string().min(1),
      accountNumber: z.string().regex(/^\d{10}$/),
      bankName: z.string().min(1),
      walletName: z.string().min(1),
      expiresAt: instant.nullish(),
    }),
  }),
);
const verify = ok(
  z.object({
    payments: z.object({
      linkingReference: z.string(),
      status: z.string(),
      amountPaid: naira,
      currency: z.string(),
      paidAt: instant.nullish(),
      updatedAt: instant.nullish(),
    }),
  }),
);
const notice = z.object({
  notificationItems: z
    .array(
      z.object({
        notificationRequestItem: z.object({
          eventId: z.string().min(1),
          data: z.object({
            event: z.string(),
            paymentReference: z.string().min(1),
            linkingReference: z.string().min(1),
            amountPaid: naira,
            currency: z.string(),
            updatedAt: instant.nullish(),
            refund: z.object({ refundReference: z.string().min(1), amount: naira, status: z.string() }).nullish(),
          }),
        }),
      }),
    )
    .length(1),
});

/** What a 4xx said, in API.md's envelope: `refused (409 S14): …`. */
export function refusal(status: number, body: unknown): string {
  const r = refusedEnvelope.safeParse(body);
  return r.success ? `refused (${status} ${r.data.data.code}): ${r.data.data.message}` : `refused (${status})`;
}

/** A 4xx in the v2 envelope is SeerBit's refusal; any other answer without what was asked for is unusable. */
function unusable(what: string, expected: string, status: number, body: unknown): Error {
  if (status >= 400 && status < 500 && refusedEnvelope.safeParse(body).success)
    return new ProviderRefused("seerbit", `${what}: ${refusal(status, body)}`);
  return new ProviderUnavailable("seerbit", `${what}: answered ${status} without ${expected}`);
}

export function readTokenAnswer(status: number, body: unknown): { token: string; expiresAt: number } {
  const a = token.safeParse(body);
  if (status !== 200 || !a.success) throw unusable("POST /api/v2/encrypt/keys", "a token", status, body);
  return { token: a.data.data.EncryptedSecKey.encryptedKey, expiresAt: a.data.data.EncryptedSecKey.expiresAt };
}

/**
 * The initiation answer. `providerReference` is SeerBit's `linkingReference`: its own unique reference for the
 * payment, the one every notice and verify answer carries (its USSD `providerreference` is only the dialled number).
 */
export function readInitiateAnswer(channel: Channel, status: number, body: unknown): Issued {
  if (channel === "USSD") {
    const a = ussd.safeParse(body);
    if (status !== 200 || !a.success) throw unusable("POST /api/v2/payments/initiates", "a ussdDailCode", status, body);
    const p = a.data.data.payments;
    return { channel, providerReference: p.linkingReference, dialCode: p.ussdDailCode, ...(p.expiresAt ? { expiresAt: p.expiresAt } : {}) };
  }
  const a = transfer.safeParse(body);
  if (status !== 200 || !a.success) throw unusable("POST /api/v2/payments/initiates", "an account", status, body);
  const p = a.data.data.payments;
  return {
    channel,
    providerReference: p.linkingReference,
    accountNumber: p.accountNumber,
    bankName: p.bankName,
    accountName: p.walletName,
    ...(p.expiresAt ? { expiresAt: p.expiresAt } : {}),
  };
}

/**
 * Verify: SUCCESSFUL and PARTIALLY_PAID are money received, amountKobo in all (a part payment stays open at SeerBit,
 * and Owo credits the running total the same way); FAILED and CANCELLED take no money; EXPIRED closed unpaid.
 */
export function readVerifyAnswer(status: number, body: unknown): ProviderPaymentState {
  if (status === 404) return { state: "not_found", amountKobo: 0, currency: "NGN" };
  const a = verify.safeParse(body);
  if (status !== 200 || !a.success) throw unusable("GET /api/v3/payments/query", "a payment", status, body);
  const p = a.data.data.payments;
  const base = { providerReference: p.linkingReference, amountKobo: p.amountPaid, currency: p.currency };
  switch (p.status) {
    case "SUCCESSFUL":
      return { ...base, state: "paid", ...(p.paidAt ? { paidAt: p.paidAt } : {}) };
    case "PARTIALLY_PAID":
      return { ...base, state: "paid", ...(p.updatedAt ? { paidAt: p.updatedAt } : {}) };
    case "FAILED":
    case "CANCELLED":
      return { ...base, state: "failed" };
    case "EXPIRED":
      return { ...base, state: "expired" };
    default:
      return { ...base, state: "pending" };
  }
}

const refundAccepted = ok(z.object({ refund: z.object({ refundReference: z.string().min(1), status: z.literal("PENDING") }) }));

/** `POST /api/v2/payments/{ref}/refunds`: accepted, always PENDING; its refundReference (Owo's own, sent along) is its id. */
export function readRefundAnswer(status: number, body: unknown): RefundState {
  const a = refundAccepted.safeParse(body);
  if (status !== 200 || !a.success) throw unusable("POST /api/v2/payments/{ref}/refunds", "an accepted refund", status, body);
  return { refundId: a.data.data.refund.refundReference, state: "pending" };
}

/** A refund's id at SeerBit: the payment's reference there and the refundReference Owo sent ("/" is in neither). */
export function seerbitRefundId(reference: string, refundReference: string): string {
  return `${reference}/${refundReference}`;
}

const refundRecord = ok(
  z.object({ refund: z.object({ refundReference: z.string().min(1), status: z.enum(["PENDING", "PROCESSED", "FAILED"]) }) }),
);

/** `GET /api/v2/payments/{ref}/refunds/{refundReference}`: how the refund stands; null on 404 (no such refund there). */
export function readRefundStatus(refundId: string, status: number, body: unknown): RefundState | null {
  if (status === 404) return null;
  const a = refundRecord.safeParse(body);
  if (status !== 200 || !a.success) throw unusable("GET /api/v2/payments/{ref}/refunds/{refundReference}", "a refund", status, body);
  const s = a.data.data.refund.status;
  return { refundId, state: s === "PROCESSED" ? "processed" : s === "FAILED" ? "failed" : "pending" };
}

/**
 * A SeerBit notice (API.md "Callbacks": one `notificationItems` entry). It is not signed in any way Owo can check
 * with the credentials SeerBit gives a merchant, so reading it proves nothing: the core must confirm every reading
 * by query() before money moves. A body that is not this shape is rejected outright.
 */
export function readNoticeBody(body: unknown): NoticeReading {
  const n = notice.safeParse(body);
  if (!n.success) throw new NoticeRejected("not a SeerBit notificationItems notice");
  const item = n.data.notificationItems[0]?.notificationRequestItem;
  if (!item) throw new NoticeRejected("no notificationRequestItem");
  const d = item.data;
  if (d.event === "refund.processed" || d.event === "refund.failed") {
    if (!d.refund) return { kind: "ignored", eventId: item.eventId, why: `${d.event} without its refund` };
    return {
      kind: "refund",
      eventId: item.eventId,
      refundId: seerbitRefundId(d.paymentReference, d.refund.refundReference),
      providerReference: d.linkingReference,
      amountKobo: d.refund.amount,
      state: d.event === "refund.processed" ? "processed" : "failed",
    };
  }
  if (d.event === "payment.successful" || d.event === "payment.partially_paid" || d.event === "payment.failed") {
    return {
      kind: "payment",
      eventId: item.eventId,
      reference: d.paymentReference,
      providerReference: d.linkingReference,
      outcome: d.event === "payment.failed" ? "failed" : "paid",
      amountKobo: d.amountPaid,
      currency: d.currency,
      ...(d.updatedAt ? { at: d.updatedAt } : {}),
    };
  }
  return { kind: "ignored", eventId: item.eventId, why: `Owo learns of SeerBit's ${d.event} by query, not by notice` };
}
