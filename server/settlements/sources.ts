// Where a settlement comes from, which settlements are its own and which credits they should hold: shared by recording (./record.ts), the expected days
// and reconciliation's not_settled check, so none of them imports another's rules.
import { and, eq, isNull } from "drizzle-orm";
import { bankNotices, payments, refunds, settlements, type Mode, type SettlementRow } from "../../db/schema";

/** Where a settlement comes from: the sandbox bank (test mode) or one of the merchant's provider accounts. */
export type SettlementSource = {
  merchantId: string;
  mode: Mode;
  provider: SettlementRow["provider"];
  /** `prv_…`; null for the sandbox bank. */
  providerAccountId: string | null;
};

/** The source's own settlements: a provider account's (its `prv_…` as providerId) or the sandbox bank's ("sandbox"). */
export function settlementsOf(source: SettlementSource) {
  return and(
    eq(settlements.merchantId, source.merchantId),
    eq(settlements.mode, source.mode),
    eq(settlements.providerId, source.providerAccountId ?? "sandbox"),
  );
}

/** The credit notices of the source's payments (join bank_notices to payments): what its settlements should hold. */
export function creditsOf(source: SettlementSource) {
  return and(
    // A live provider's notices are kept under the account that received them (its `prv_…`).
    eq(bankNotices.provider, source.providerAccountId ?? source.provider),
    eq(bankNotices.kind, "credit"),
    eq(payments.merchantId, source.merchantId),
    eq(payments.mode, source.mode),
    source.providerAccountId === null ? isNull(payments.providerAccountId) : eq(payments.providerAccountId, source.providerAccountId),
  );
}

/** The refunds of the source's payments that it paid back (or was asked to): what its settlements' refund lines are. */
export function refundsOf(source: SettlementSource) {
  return and(
    eq(refunds.merchantId, source.merchantId),
    eq(refunds.mode, source.mode),
    source.providerAccountId === null ? isNull(refunds.providerAccountId) : eq(refunds.providerAccountId, source.providerAccountId),
  );
}
