// How settlements and reconciliation read to a finance team: the words for statuses, line kinds and exception kinds.
import type { SettlementView } from "@/server/settlements/view";
import type { ExceptionView } from "@/server/reconciliation/exceptions";
import { displayNaira, parseAmount } from "@/server/money";

export const SETTLEMENT_STATUS_LABEL: Record<SettlementView["status"], string> = {
  expected: "Expected",
  pending: "Pending",
  processing: "Processing",
  withheld: "Withheld",
  paid: "Paid",
  failed: "Failed",
};

export const PROVIDER_LABEL: Record<SettlementView["provider"], string> = {
  sandbox: "Owo Sandbox Bank",
  paystack: "Paystack",
  flutterwave: "Flutterwave",
  seerbit: "SeerBit",
};

/** A provider account as a person tells it apart: the provider, and the account's id when it is a connected one. */
export function providerAccountLabel(provider: SettlementView["provider"], providerId: string): string {
  return providerId === provider ? PROVIDER_LABEL[provider] : `${PROVIDER_LABEL[provider]} · ${providerId}`;
}

export const LINE_KIND_LABEL: Record<string, string> = {
  payment: "Payment",
  refund: "Refund",
  adjustment: "Deduction",
  external: "Other sale",
  unknown: "Unknown",
};

export const EXCEPTION_KIND_LABEL: Record<ExceptionView["kind"], string> = {
  unknown_payment: "Unknown payment",
  amount_mismatch: "Amount mismatch",
  fee_mismatch: "Fee mismatch",
  net_mismatch: "Net mismatch",
  not_settled: "Not settled",
  bank_unmatched: "Not on the bank statement",
};

/** What each kind means, in a sentence a finance person acts on. */
export const EXCEPTION_KIND_HINT: Record<ExceptionView["kind"], string> = {
  unknown_payment: "A line under Owo's reference for no Owo payment; its money sits in suspense.",
  amount_mismatch: "The provider settled a different amount than Owo recorded for the payment.",
  fee_mismatch: "The provider charged a different fee than Owo recorded or the schedule allows.",
  net_mismatch: "The settlement's net does not add up from its own figures or its lines.",
  not_settled: "A payment Owo credited that no settlement of its provider has paid out yet.",
  bank_unmatched: "A payout with no bank statement line, or a provider's bank credit with no settlement.",
};

/** Lagos day, "26 Nov 2026", for a settlement's or statement's date. */
const day = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Lagos", day: "numeric", month: "short", year: "numeric" });
export function lagosDay(iso: string | null): string {
  return iso ? day.format(new Date(iso)) : "—";
}

/** Today as YYYY-MM-DD in Africa/Lagos (UTC+1 all year), for a period's default. */
export function lagosDate(ms: number): string {
  return new Date(ms + 3_600_000).toISOString().slice(0, 10);
}

/** "-1500.00" → -150000: a figure that may be negative (a balance, a reversal), through kobo, never a float. */
export function signedKobo(amount: string): number {
  const negative = amount.startsWith("-");
  return (negative ? -1 : 1) * (parseAmount(negative ? amount.slice(1) : amount) ?? 0);
}

/** -5000 → "−₦50.00": deductions read as deductions. */
export function signedDisplay(kobo: number): string {
  return kobo < 0 ? `−${displayNaira(-kobo)}` : displayNaira(kobo);
}

/** "-50.00" → "−₦50.00". */
export function signedNaira(amount: string): string {
  return signedDisplay(signedKobo(amount));
}
