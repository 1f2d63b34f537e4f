// SeerBit's answers, read into Owo's words (its notices: ./notices.ts). Pure functions (no I/O): the contract test replays SeerBit's
// published samples (./fixtures, each naming its page) through them, and the connector reads every live answer
// with them. Sources are listed in ./connector.ts. Amounts arrive as JSON numbers (10.15) or naira strings ("10"):
// both are read through their decimal text into kobo, never by float arithmetic.
import { z } from "zod";
import { parseNairaAnswer } from "../../money";
import { ProviderRefused, ProviderUnavailable, type Channel, type Issued, type ProviderPaymentState, type RefundState } from "../connector";

export const naira = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const k = parseNairaAnswer(v);
  if (k === null) ctx.addIssue({ code: "custom", message: "not a naira amount with at most 2 decimals" });
  return k ?? 0;
});
/** SeerBit's own envelope: `{"status":"SUCCESS","data":{"code":…,"message":…,…}}`. */
const envelope = z.object({
  status: z.string(),
  data: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }),
});
/** Its error shape (OpenAPI components.examples 400Response, 401Response, 403Response, 404Response1, 500Response). */
const errorShape = z.object({ message: z.string().optional(), error: z.string() });

/** What SeerBit said when it said no: its error shape, or a `data.code` other than success in its envelope. */
function said(body: unknown): string {
  const e = errorShape.safeParse(body);
  if (e.success) return `${e.data.error}${e.data.message ? `: ${e.data.message}` : ""}`;
  const v = envelope.safeParse(body);
  return v.success ? `${v.data.data.code ?? "no code"}: ${v.data.data.message ?? "no message"}` : "an answer in no shape SeerBit documents";
}

/**
 * A 4xx in SeerBit's error shape, or a 200 whose `data.code` is a refusal (S12 "Transaction Failed", S7 "Invalid
 * Amount", S18 "reference must be unique" — OpenAPI components.examples), is SeerBit saying no: final for this
 * request. Anything else without what was asked for is an answer Owo cannot use.
 */
function unusable(what: string, expected: string, status: number, body: unknown, refusedCode = false): Error {
  if ((status >= 400 && status < 500 && errorShape.safeParse(body).success) || refusedCode)
    return new ProviderRefused("seerbit", `${what}: refused (${status} ${said(body)})`);
  return new ProviderUnavailable("seerbit", `${what}: answered ${status} without ${expected} (${said(body)})`);
}

// https://apis.seerbit.com/authentication spells the key EncryptedSecKey; the OpenAPI document's example spells it
// EncrytedSecKey. Both are read. Neither carries an expiry: the token is kept until SeerBit answers 401.
const tokenKey = z.object({ encryptedKey: z.string().min(1) });
const token = z.object({
  status: z.literal("SUCCESS"),
  data: z.object({ code: z.literal("00"), EncryptedSecKey: tokenKey.optional(), EncrytedSecKey: tokenKey.optional() }),
});

export function readTokenAnswer(status: number, body: unknown): string {
  const a = token.safeParse(body);
  const key = a.success ? (a.data.data.EncryptedSecKey ?? a.data.data.EncrytedSecKey) : undefined;
  if (status !== 200 || !key) throw unusable("POST /api/v2/encrypt/keys", "a token", status, body);
  return key.encryptedKey;
}

/** Initiation codes that are not a refusal: null (the USSD page's sample), 00, and pending (S20, 20). */
const ISSUED_CODES: ReadonlySet<string | null> = new Set([null, "00", "S20", "20"]);
const ussd = z.object({
  paymentReference: z.string().optional(),
  linkingReference: z.string().min(1),
  ussdDailCode: z.string().regex(/^\*[0-9*]+#$/),
});
const transfer = z.object({
  paymentReference: z.string().min(1).optional(),
  linkingReference: z.string().min(1).optional(),
  accountNumber: z.string().regex(/^\d{10}$/),
  bankName: z.string().min(1),
  walletName: z.string().min(1),
});

/**
 * The initiation answer. USSD (apis.seerbit.com "Pay with USSD"): the dial code under SeerBit's `linkingReference`,
 * its own reference for the payment (`providerreference` there is only the code's digits). TRANSFER (OpenAPI
 * InitiateTransferResponse): an account and its name, and no `linkingReference`: the payment's own
 * `paymentReference` there is the reference, else Owo's own.
 */
export function readInitiateAnswer(channel: Channel, reference: string, status: number, body: unknown): Issued {
  const what = "POST /api/v2/payments/initiates";
  const e = envelope.safeParse(body);
  const code = e.success ? (e.data.data.code ?? null) : undefined;
  if (status !== 200 || !e.success || e.data.status !== "SUCCESS" || !ISSUED_CODES.has(code ?? null))
    return failure(unusable(what, "a payment", status, body, e.success && !ISSUED_CODES.has(code ?? null)));
  const payments = e.data.data.payments;
  if (channel === "USSD") {
    const p = ussd.safeParse(payments);
    if (!p.success) return failure(unusable(what, "a ussdDailCode", status, body));
    return { channel, providerReference: p.data.linkingReference, dialCode: p.data.ussdDailCode };
  }
  const p = transfer.safeParse(payments);
  if (!p.success) return failure(unusable(what, "an account", status, body));
  return {
    channel,
    providerReference: p.data.linkingReference ?? p.data.paymentReference ?? reference,
    accountNumber: p.data.accountNumber,
    bankName: p.data.bankName,
    accountName: p.data.walletName,
  };
}

function failure(err: Error): never {
  throw err;
}

const queried = z.object({
  status: z.literal("SUCCESS"),
  data: z.object({
    code: z.string(),
    payments: z.object({
      amount: naira,
      fee: naira.optional(),
      currency: z.string(),
      paymentReference: z.string().optional(),
      linkingReference: z.string().optional(),
      gatewayref: z.string().optional(),
      paymentBreakdown: z.object({ amount: naira, fee: naira, total: naira.optional() }).optional(),
      transactionProcessedTime: z.string().optional(),
    }),
  }),
});

/** "2024-12-06 15:18:36.404709127": SeerBit's local time (Lagos, UTC+1; the sample names no zone), to the ms. */
function lagosTime(s: string | undefined): number | undefined {
  const m = s ? /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d{1,3})?\d*$/.exec(s) : null;
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}${m[3] ?? ""}+01:00`);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * The query (doc.seerbit.com "Verify Payments", GET /api/v3/payments/query/{paymentReference}). Its outcome is
 * `data.code`: 00 paid; S20 and S0 not paid yet (ask again); S12 failed; any other code is not money either, so it
 * reads as pending and is asked again. `payments.amount` is what the customer was charged, fee included where the
 * customer bore it; `paymentBreakdown.amount` is what the merchant asked, and is what Owo credits. The merchant's
 * fee (API.md "Fees") is `paymentBreakdown.fee` less whatever the customer paid on top of the amount asked.
 */
export function readQueryAnswer(status: number, body: unknown): ProviderPaymentState {
  if (status === 404) return { state: "not_found", amountKobo: 0, currency: "NGN" };
  const a = queried.safeParse(body);
  if (status !== 200 || !a.success) throw unusable("GET /api/v3/payments/query", "a payment", status, body);
  const { code, payments: p } = a.data.data;
  const charged = p.amount;
  const asked = p.paymentBreakdown?.amount ?? charged;
  const fee = p.paymentBreakdown?.fee ?? p.fee ?? 0;
  const base = {
    providerReference: p.linkingReference ?? p.gatewayref ?? p.paymentReference,
    currency: p.currency,
  };
  if (code === "00") {
    const paidAt = lagosTime(p.transactionProcessedTime);
    return {
      ...base,
      state: "paid",
      // Never more than the customer paid: a breakdown asking more than was charged credits what was charged.
      amountKobo: Math.min(asked, charged),
      chargedKobo: charged,
      feeKobo: Math.max(0, fee - Math.max(0, charged - asked)),
      ...(paidAt !== undefined ? { paidAt } : {}),
    };
  }
  return { ...base, state: code === "S12" ? "failed" : "pending", amountKobo: 0 };
}

const refundAnswer = z.object({ status: z.literal("SUCCESS"), data: z.looseObject({ code: z.string().nullish() }) });

/**
 * `POST /api/v2/payments/refunds`: the refund is done only when `data.code` is "00" (the only sample SeerBit
 * publishes for a refund, OpenAPI Refund201Response, says APPROVED / REFUNDED with it). Any other code is SeerBit's
 * refusal. SeerBit offers no way to ask about a refund afterwards, so the refund's id is Owo's own refundReference.
 */
export function readRefundAnswer(refundReference: string, status: number, body: unknown): RefundState {
  const a = refundAnswer.safeParse(body);
  if ((status === 200 || status === 201) && a.success && a.data.data.code === "00")
    return { refundId: refundReference, state: "processed" };
  throw unusable("POST /api/v2/payments/refunds", "data.code 00", status, body, a.success);
}
