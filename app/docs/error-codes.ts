// API.md's error table and order of checks, as the errors page shows them; a test holds each status to the core's ApiError.
import type { ApiCode } from "@/server/api-error";

export const ERROR_CODES = {
  S5: { http: 400, when: "Body not a JSON object or not JSON; a field missing or malformed; unknown paymentType; bankCode sent with TRANSFER; more than one field at fault (all listed)" },
  S2: { http: 400, when: "The amount alone is at fault: not a string of digits with at most 2 decimals, zero, or outside the limits" },
  S4: { http: 400, when: "The currency alone is at fault (only NGN)" },
  S6: { http: 400, when: "The country alone is at fault (only NG)" },
  S8: { http: 400, when: "The bankCode alone is at fault: unknown, or the bank has no USSD service" },
  S1: { http: 401, when: "Missing, malformed, expired or revoked bearer token; wrong key pair; publicKey not the token's" },
  S3: { http: 403, when: "Not allowed in this mode or for this role (e.g. sandbox simulation with a live key)" },
  S404: { http: 404, when: "Unknown path; no such payment for this merchant (another merchant's is also 404)" },
  S405: { http: 405, when: "Known path, wrong method (the Allow header lists the right ones)" },
  S14: { http: 409, when: "paymentReference already used by this merchant, in this mode, with a different request" },
  S15: { http: 409, when: "The payment's state forbids the action: cancel a payment that is not PENDING; refund more than is refundable" },
  S413: { http: 413, when: "Body larger than 16 KiB" },
  S415: { http: 415, when: "Content-Type is not application/json" },
  S429: { http: 429, when: "Rate limit; Retry-After says how many whole seconds to wait (at least 1)" },
  S500: { http: 500, when: "Unexpected fault; the message carries the request id, never internals" },
  S502: { http: 502, when: "Live mode: no connected provider could issue the code or account now (each provider's failure is named in errors); nothing was stored, the same reference may be sent again" },
} satisfies Record<ApiCode, { http: number; when: string }>;

/** The first failing check answers. */
export const ORDER_OF_CHECKS = [
  "Path and method (404 S404, 405 S405)",
  "Body size (413 S413)",
  "Rate limit (429 S429)",
  "Bearer token (401 S1)",
  "Content type (415 S415)",
  "JSON syntax and shape (400 S5)",
  "publicKey belongs to the token's merchant (401 S1; a missing publicKey is a field error, S5)",
  "Fields (400: every field failure together)",
  "paymentReference (the first answer again, or 409 S14)",
];
