// SeerBit's requests as its docs describe them, in zod: what the SeerBit double holds every request Owo sends to.
// SeerBit's OpenAPI document types the initiate body only as `type: object`, so each schema here is written from
// the page that lists the fields, cited beside it. Also the webhook acknowledgement handshake (Webhook V2).
import { z } from "zod";

/** SeerBit's amounts in requests: a naira string ("2000.00", "5.10"; apis.seerbit.com lists `amount` as String). */
const nairaString = z.string().regex(/^\d+(\.\d{1,2})?$/, "a naira amount as a string, e.g. 2000.00");

/** POST /api/v2/encrypt/keys — OpenAPI components.schemas.GenerateEncryptedSecretKeyRequest (key required);
 * https://apis.seerbit.com/authentication: "consists of your privatekey and publickey seperated by a '.'". */
export const tokenRequest = z.object({ key: z.string().regex(/^[^.\s]+\.[^.\s]+$/, "secretKey.publicKey") });

/** The customer and payment fields both channels take, each marked required (*) on apis.seerbit.com's pages. */
const paymentFields = {
  publicKey: z.string().min(1),
  amount: nairaString,
  email: z.email(),
  country: z.string().length(2),
  paymentReference: z.string().min(1),
  mobileNumber: z.string().min(1),
  fullName: z.string().min(1),
  currency: z.string().length(3),
};

/** https://apis.seerbit.com/api-endpoints/pay-with-ussd — every field below is marked required (*) there. */
export const ussdInitiate = z.object({
  ...paymentFields,
  callbackUrl: z.url(),
  redirectUrl: z.url(),
  paymentType: z.literal("USSD"),
  bankCode: z.string().min(1),
});

/**
 * TRANSFER: the same page family (apis.seerbit.com "Pay with Transfer", and OpenAPI
 * components.examples.transferRequestPaylaod, which shows publicKey, fullName, amount as a string, mobileNumber,
 * currency, country, paymentReference, email, callbackUrl, redirectUrl). paymentType TRANSFER; no bankCode.
 */
export const transferInitiate = z.object({
  ...paymentFields,
  callbackUrl: z.url().optional(),
  redirectUrl: z.url().optional(),
  paymentType: z.literal("TRANSFER"),
});

/**
 * POST /api/v2/payments/refunds: publicKey, amount, paymentReference and productDescription (SeerBit's refund
 * docs); OpenAPI components.schemas.RefundRequest (for its /payments/refund) also requires currency and country,
 * which Owo sends and the double accepts.
 */
export const refundRequest = z.object({
  publicKey: z.string().min(1),
  amount: nairaString,
  paymentReference: z.string().min(1),
  productDescription: z.string().min(1),
  currency: z.string().length(3).optional(),
  country: z.string().length(2).optional(),
});

/**
 * https://doc.seerbit.com/online-payment/after-payment/webhook-event-v2: each delivery carries an acknowledgement
 * reference; the receiver answers 200 with `{"ackReference": …, "status": "received"}` in time (SeerBit retries
 * anything else, then gives up).
 */
export const ACK_HEADER = "x-expected-ack-reference";
export const ACK_DEADLINE_MS = 5_000;

export function ackOf(reference: string | undefined): Record<string, unknown> {
  return { ackReference: reference ?? null, status: "received" };
}

export const ackAnswer = z.object({ ackReference: z.string(), status: z.literal("received") });

/** The fields a zod failure names, as SeerBit's own 400 message would ("Invalid/Missing parameters = …"). */
export function missing(error: z.ZodError): string {
  return [...new Set(error.issues.map((i) => i.path.join(".") || "body"))].join(", ");
}
