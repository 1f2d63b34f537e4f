// Owo's own reference prefix (API.md "Live mode" → Modes, and "Settlements"): every live attempt reaches its provider
// under a reference that starts with Owo's prefix, so notices and settlement lines for Owo's transactions are told
// from the merchant's other sales on the same provider account. API.md writes the prefix `owo_`; Paystack allows
// only letters, digits, "-", "." and "=" in a reference (its OpenAPI document, TransactionInitialize.reference), so
// there it is `owo-`. Flutterwave (tx_ref) and SeerBit (paymentReference) publish no character rule beyond
// uniqueness, so they take `owo_` as written. docs/DESIGN.md "The bank side" records the deviation.
import type { ProviderName } from "./connector";

const PREFIXES: Record<ProviderName, string> = {
  sandbox: "owo_",
  paystack: "owo-",
  flutterwave: "owo_",
  seerbit: "owo_",
};

/** The reference an attempt is sent to `provider` under: `body` behind the provider's form of Owo's prefix. */
export function ownReference(provider: ProviderName, body: string): string {
  return `${PREFIXES[provider]}${body}`;
}

/** Whether `provider` knows this transaction under Owo's own prefix: Owo's, not the merchant's other sale. */
export function isOwoReference(provider: ProviderName, reference: string | null | undefined): boolean {
  return reference !== null && reference !== undefined && reference.startsWith(PREFIXES[provider]);
}
