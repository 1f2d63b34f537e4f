// Standard Webhooks signing (API.md "Callbacks"): what a receiver verifies with the published libraries.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

const SECRET_PREFIX = "whsec_";
// API.md asks for at least 24 bytes; 32 is SHA-256's own size, past which HMAC gains no strength.
const SECRET_BYTES = 32;

export type SignatureHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

export type SignInput = {
  /** The eventId: the same on every retry and for every destination, so receivers can dedupe. */
  eventId: string;
  /** Unix seconds of this attempt; receivers refuse anything older than their tolerance (5 min). */
  timestamp: number;
  /** The exact bytes sent; re-serialising would break the signature. */
  body: string;
  /** The current secret, plus a rolled one while its grace period runs. */
  secrets: readonly string[];
};

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

export function signatureHeaders({ eventId, timestamp, body, secrets }: SignInput): SignatureHeaders {
  if (secrets.length === 0) throw new Error("signatureHeaders needs at least one secret");
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new Error(`signatureHeaders needs unix seconds, got ${timestamp}`);
  }
  // The library takes a Date and floors it back to seconds, so whole seconds round-trip exactly.
  const at = new Date(timestamp * 1000);
  const signatures = secrets.map((secret) => {
    if (!secret.startsWith(SECRET_PREFIX)) throw new Error("signing secret must start with whsec_");
    return new Webhook(secret).sign(eventId, at, body);
  });
  // Deduped: a roll that somehow kept the same secret should not send the same signature twice.
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": [...new Set(signatures)].join(" "),
  };
}
