// A request's idempotency fingerprint (API.md "Idempotency"): a repeat of a paymentReference with the same
// fingerprint is answered again; a different one is S14.
import type { InitiateRequest } from "./initiate-schema";

/** What makes two requests "the same" (API.md Idempotency): every field but publicKey, amount as kobo. */
export function fingerprint(req: InitiateRequest): string {
  return JSON.stringify([
    req.paymentType,
    req.amount,
    req.fullName,
    req.mobileNumber,
    req.email,
    req.currency,
    req.country,
    req.paymentReference,
    req.callbackUrl,
    req.redirectUrl,
    req.paymentType === "USSD" ? req.bankCode : null,
  ]);
}
