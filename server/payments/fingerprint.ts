// A request's idempotency fingerprint (API.md "Idempotency"): a repeat of a paymentReference with the same
// fingerprint is answered again; a different one is S14. The bytes are stored with each payment, so their order and
// shape never change: the channel word, the common fields, then what only that channel has.
import type { InitiateRequest } from "./initiate-schema";

type CommonFields = Pick<
  InitiateRequest,
  "amount" | "fullName" | "mobileNumber" | "email" | "currency" | "country" | "paymentReference" | "callbackUrl" | "redirectUrl"
>;

/** Every field but publicKey, amount as kobo; `channelOnly` follows the common fields. */
export function fingerprintOf(channel: string, req: CommonFields, channelOnly: unknown[] = []): string {
  return JSON.stringify([
    channel,
    req.amount,
    req.fullName,
    req.mobileNumber,
    req.email,
    req.currency,
    req.country,
    req.paymentReference,
    req.callbackUrl,
    req.redirectUrl,
    ...channelOnly,
  ]);
}

/** What makes two initiations "the same": USSD's bank too. */
export const fingerprint = (req: InitiateRequest): string =>
  fingerprintOf(req.paymentType, req, [req.paymentType === "USSD" ? req.bankCode : null]);
