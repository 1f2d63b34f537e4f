// Paystack signs each webhook with `x-paystack-signature`: the hex HMAC-SHA512 of the raw body, keyed with the
// merchant's secret key (https://paystack.com/docs/payments/webhooks/#verify-event-origin). No timestamp is signed,
// so a replay is caught by the notice dedupe, not here.
import { createHmac, timingSafeEqual } from "node:crypto";

export const PAYSTACK_SIGNATURE_HEADER = "x-paystack-signature";

export function paystackSignature(rawBody: Buffer | string, secretKey: string): string {
  return createHmac("sha512", secretKey).update(rawBody).digest("hex");
}

/** True only for a signature made with `secretKey` over these very bytes (the parsed-and-restringified JSON would differ). */
export function paystackSignatureValid(header: string | string[] | undefined, rawBody: Buffer, secretKey: string): boolean {
  if (typeof header !== "string" || !/^[0-9a-f]{128}$/i.test(header) || secretKey === "") return false;
  return timingSafeEqual(Buffer.from(paystackSignature(rawBody, secretKey), "hex"), Buffer.from(header, "hex"));
}
