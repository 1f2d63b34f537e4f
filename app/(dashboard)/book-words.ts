// How the books read to people, on the Balances page and a payment's ledger: providers, accounts and entry kinds in words.
import type { EntryView } from "@/server/books/entries";

const PROVIDER_WORD: Record<string, string> = {
  sandbox: "Sandbox bank",
  paystack: "Paystack",
  flutterwave: "Flutterwave",
  seerbit: "SeerBit",
};

export function providerWord(provider: string): string {
  return PROVIDER_WORD[provider] ?? provider;
}

const ACCOUNT_WORD: Record<string, string> = {
  bank: "Paid out to your bank",
  sales: "Sales",
  fees: "Fees",
  refunds: "Refunds",
  refund_due: "Owed back to customers",
  adjustments: "Deductions",
  external: "Your other sales",
  suspense: "Suspense",
};

/** "provider:prv_…" → "Paystack (unsettled)", with the provider each account id is at. */
export function accountWord(account: string, providerOf: Map<string, string>): string {
  const m = /^(provider|provider_wallet):(.+)$/.exec(account);
  if (m?.[2]) return `${providerWord(providerOf.get(m[2]) ?? m[2])} ${m[1] === "provider" ? "(unsettled)" : "wallet"}`;
  return ACCOUNT_WORD[account] ?? account;
}

export const KIND_WORD: Record<EntryView["kind"], string> = {
  credit: "Payment received",
  late_credit: "Late money",
  refund: "Refund",
  settlement: "Payout",
  settlement_failed: "Payout failed",
  adjustment: "Deduction",
  reversal: "Reversal",
};
