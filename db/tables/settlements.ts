// Payouts from the providers to the merchant (API.md "Settlements"), as each provider published them, and the
// sandbox bank's own record of what it took in and paid back, from which it settles (never from Owo's books).
// Times are integer milliseconds since the epoch (UTC); money is integer kobo.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { merchants } from "./people";

/** One provider settlement, recorded once and updated as its status moves. */
export const settlements = sqliteTable(
  "settlements",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    provider: text("provider", { enum: ["sandbox", "paystack", "flutterwave", "seerbit"] }).notNull(),
    /** The provider account (`prv_…`), or "sandbox": with the provider's own id, what makes a settlement the same one. */
    providerId: text("provider_id").notNull(),
    providerSettlementId: text("provider_settlement_id").notNull(),
    status: text("status", { enum: ["expected", "pending", "processing", "withheld", "paid", "failed"] }).notNull(),
    destination: text("destination", { enum: ["bank", "wallet"] }).notNull(),
    currency: text("currency").notNull(),
    grossKobo: integer("gross_kobo").notNull(),
    feeKobo: integer("fee_kobo").notNull(),
    refundKobo: integer("refund_kobo").notNull(),
    adjustmentKobo: integer("adjustment_kobo").notNull(),
    netKobo: integer("net_kobo").notNull(),
    lineCount: integer("line_count").notNull(),
    settledAt: integer("settled_at"),
    bankReference: text("bank_reference"),
    reconciliationStatus: text("reconciliation_status", { enum: ["unchecked", "matched", "exceptions"] })
      .notNull()
      .default("unchecked"),
    exceptionCount: integer("exception_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("settlements_provider_settlement").on(t.merchantId, t.mode, t.providerId, t.providerSettlementId),
    index("settlements_list").on(t.merchantId, t.mode, t.createdAt, t.id),
  ],
);

/** What a settlement paid, line by line (refund and adjustment lines negative), with Owo's payment where one matched. */
export const settlementLines = sqliteTable(
  "settlement_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    settlementId: text("settlement_id")
      .notNull()
      .references(() => settlements.id),
    position: integer("position").notNull(),
    kind: text("kind", { enum: ["payment", "refund", "adjustment", "external", "unknown"] }).notNull(),
    providerTransactionId: text("provider_transaction_id").notNull(),
    /** Owo's reference of the payment the line matched; null when it matched none. */
    paymentReference: text("payment_reference"),
    /** The reference the provider knows the transaction by (Owo's `owo_…` issue reference, or the merchant's own). */
    providerReference: text("provider_reference"),
    grossKobo: integer("gross_kobo").notNull(),
    feeKobo: integer("fee_kobo").notNull(),
    netKobo: integer("net_kobo").notNull(),
    matched: integer("matched", { mode: "boolean" }).notNull(),
  },
  (t) => [
    uniqueIndex("settlement_lines_position").on(t.settlementId, t.position),
    index("settlement_lines_transaction").on(t.providerTransactionId),
  ],
);

/** The sandbox bank's own record of each credit notice it sent, with the fee it charged; settled once. */
export const sandboxBankCredits = sqliteTable(
  "sandbox_bank_credits",
  {
    transactionId: text("transaction_id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    paymentReference: text("payment_reference").notNull(),
    /** What the bank knows the payment by (Owo's issue reference): refunds name it. */
    reference: text("reference").notNull(),
    amountKobo: integer("amount_kobo").notNull(),
    feeKobo: integer("fee_kobo").notNull(),
    sentAt: integer("sent_at").notNull(),
    /** The bank's own settlement id (`sbs_…`) once it paid this credit out. */
    settlementId: text("settlement_id"),
  },
  (t) => [
    index("sandbox_bank_credits_open").on(t.merchantId, t.settlementId, t.sentAt),
    // The daily round: which merchants have credits of days gone by still unsettled.
    index("sandbox_bank_credits_unsettled").on(t.settlementId, t.sentAt),
    index("sandbox_bank_credits_reference").on(t.reference),
  ],
);

/** The sandbox bank's own record of each refund it accepted; one it paid back is deducted from a settlement once. */
export const sandboxBankRefunds = sqliteTable(
  "sandbox_bank_refunds",
  {
    refundId: text("refund_id").primaryKey(),
    reference: text("reference").notNull(),
    amountKobo: integer("amount_kobo").notNull(),
    /** When the customer's bank took it (or refused it: `declined`). */
    paidAt: integer("paid_at").notNull(),
    declined: integer("declined", { mode: "boolean" }).notNull(),
    settlementId: text("settlement_id"),
  },
  (t) => [index("sandbox_bank_refunds_reference").on(t.reference, t.settlementId)],
);

/** A disagreement reconciliation found (API.md "Reconciliation"), open until a person resolves it or its cause goes. */
export const reconciliationExceptions = sqliteTable(
  "reconciliation_exceptions",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    kind: text("kind", {
      enum: ["unknown_payment", "amount_mismatch", "fee_mismatch", "net_mismatch", "not_settled", "bank_unmatched"],
    }).notNull(),
    settlementId: text("settlement_id").references(() => settlements.id),
    paymentReference: text("payment_reference"),
    /** What the exception is about at the provider (a line's transaction id), so the same finding is recorded once. */
    subject: text("subject").notNull(),
    expectedKobo: integer("expected_kobo"),
    actualKobo: integer("actual_kobo"),
    openedAt: integer("opened_at").notNull(),
    resolvedAt: integer("resolved_at"),
    note: text("note"),
  },
  (t) => [
    uniqueIndex("reconciliation_exceptions_finding").on(t.merchantId, t.mode, t.kind, t.subject),
    index("reconciliation_exceptions_open").on(t.merchantId, t.mode, t.resolvedAt),
  ],
);

/**
 * Lines of the merchant's bank statements (POST /api/v2/bank-statements), kept as imported: credits matched to the
 * settlements they confirm, debits and other income kept unmatched. A line equal in all four fields to one already
 * imported for the account is the same line, so a statement sent twice changes nothing.
 */
export const bankStatementLines = sqliteTable(
  "bank_statement_lines",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    accountNumber: text("account_number").notNull(),
    /** The Lagos day the bank booked it, YYYY-MM-DD. */
    date: text("date").notNull(),
    /** Credits positive, debits negative. */
    amountKobo: integer("amount_kobo").notNull(),
    reference: text("reference").notNull(),
    narration: text("narration").notNull(),
    /** The settlement this credit confirmed (several expected days of one provider may share one line). */
    settlementId: text("settlement_id").references(() => settlements.id),
    importedAt: integer("imported_at").notNull(),
  },
  (t) => [
    uniqueIndex("bank_statement_lines_same").on(t.merchantId, t.mode, t.accountNumber, t.date, t.amountKobo, t.reference, t.narration),
    index("bank_statement_lines_day").on(t.merchantId, t.mode, t.date),
  ],
);
