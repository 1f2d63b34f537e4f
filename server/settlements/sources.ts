// Where a settlement comes from and which credits it should hold: shared by recording (./record.ts), the expected days
// and reconciliation's not_settled check, so none of them imports another's rules.
import { and, eq, isNull } from "drizzle-orm";
import { bankNotices, payments, type Mode, type SettlementRow } from "../../db/schema";

/** Where a settlement comes from: the sandbox bank (test mode) or one of the merchant's provider accounts. */
export type SettlementSource = {
  merchantId: string;
  mode: Mode;
  provider: SettlementRow["provider"];
  /** `prv_…`; null for the sandbox bank. */
  providerAccountId: string | null;
};

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
