// Flutterwave proves a webhook with `verif-hash`, the secret hash the merchant set on its dashboard, or with
// `flutterwave-signature`, the base64 HMAC-SHA256 of the raw body keyed with that hash
// (https://developer.flutterwave.com/docs/webhooks). No timestamp is signed: a replay is caught by the notice dedupe.
import { createHmac, timingSafeEqual } from "node:crypto";

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const FLUTTERWAVE_SIGNATURE_HEADER = "flutterwave-signature";

/** Flutterwave's signed webhooks: base64 HMAC-SHA256 of the raw body, keyed with the merchant's secret hash. */
function flutterwaveSignature(rawBody: Buffer | string, secretHash: string): string {
  return createHmac("sha256", secretHash).update(rawBody).digest("base64");
}

/** Whether either header proves the body; never without a secret hash saved. */
export function flutterwaveNoticeProven(
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
  secretHash: string | undefined,
): boolean {
  if (!secretHash) return false;
  const hash = headerValue(headers, "verif-hash");
  const signature = headerValue(headers, FLUTTERWAVE_SIGNATURE_HEADER);
  return (!!hash && sameSecret(hash, secretHash)) || (!!signature && sameSecret(signature, flutterwaveSignature(rawBody, secretHash)));
}
