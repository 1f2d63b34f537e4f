// The accounts of a merchant's books (API.md "Ledger and balances"). Balances are stored debits − credits; each is
// shown in its natural sign, so a credit-normal account (sales, refund_due, external, suspense) shows credits − debits.

export type Account =
  | `provider:${string}`
  | `provider_wallet:${string}`
  | "bank"
  | "sales"
  | "fees"
  | "refunds"
  | "refund_due"
  | "adjustments"
  | "external"
  | "suspense";

/** The provider that holds a payment's money: its account id, or "sandbox" for the sandbox bank (test mode). */
export function providerAccount(providerAccountId: string | null): Account {
  return `provider:${providerAccountId ?? "sandbox"}`;
}

const CREDIT_NORMAL = new Set<string>(["sales", "refund_due", "external", "suspense"]);

/** A stored balance (debits − credits) in the account's natural sign. */
export function naturalBalance(account: string, debitsLessCredits: number): number {
  return CREDIT_NORMAL.has(account) ? -debitsLessCredits : debitsLessCredits;
}
