// The bank side: merchants' provider accounts, and what the providers told Owo.
// Times are integer milliseconds since the epoch (UTC); money is integer kobo.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { payments } from "./payments";
import { merchants } from "./people";

/** A merchant's account at a bank-side provider; credentials sealed under OWO_MASTER_KEY, shown by their last 4. */
export const providerAccounts = sqliteTable(
  "provider_accounts",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    provider: text("provider", { enum: ["sandbox", "paystack", "flutterwave", "seerbit"] }).notNull(),
    priority: integer("priority").notNull(),
    baseUrl: text("base_url").notNull(),
    credentialsEnc: text("credentials_enc").notNull(),
    /** `{"secretKey":"…1a2b"}`: each credential's last 4 characters, all the dashboard ever shows again. */
    credentialsLast4: text("credentials_last4").notNull(),
    /** The provider's own test credentials (e.g. sk_test_…): still Owo live mode, marked on the dashboard. */
    providerTestMode: integer("provider_test_mode", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
    disconnectedAt: integer("disconnected_at"),
    /** Health and the circuit breaker: shared through the database, so every instance and the dashboard see it. */
    lastSuccessAt: integer("last_success_at"),
    lastFailureAt: integer("last_failure_at"),
    lastFailure: text("last_failure"),
    failureWindowStart: integer("failure_window_start"),
    failureCount: integer("failure_count").notNull().default(0),
    restingUntil: integer("resting_until"),
    /** The merchant says its provider approved refunds through the API for this account (SeerBit asks for that). */
    refundsEnabled: integer("refunds_enabled", { mode: "boolean" }).notNull().default(false),
    /**
     * Where notices for the merchant's other sales on this account go (the provider takes one webhook URL, and Owo
     * holds it): forwarded unchanged, retried like a callback. Null: they are only recorded.
     */
    forwardUrl: text("forward_url"),
    /**
     * The fee schedule the merchant agreed with this provider (API.md "Fees", server/books/fee-schedules.ts): set
     * together, or none (percent null). Basis points and kobo; a null cap is no cap.
     */
    feePercentBasisPoints: integer("fee_percent_bp"),
    feeFlatKobo: integer("fee_flat_kobo"),
    feeFlatWaivedUnderKobo: integer("fee_flat_waived_under_kobo"),
    feeCapKobo: integer("fee_cap_kobo"),
  },
  (t) => [index("provider_accounts_merchant").on(t.merchantId, t.priority)],
);

/** What the bank side told us; one row per provider transaction, so a repeated notice is a no-op. */
export const bankNotices = sqliteTable(
  "bank_notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    provider: text("provider").notNull(),
    providerTransactionId: text("provider_transaction_id").notNull(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    /** reversal and expiry: what a live provider's own record said (it sent money back itself; it closed the payment). */
    kind: text("kind", { enum: ["credit", "decline", "reversal", "expiry"] }).notNull(),
    amountKobo: integer("amount_kobo").notNull().default(0),
    senderName: text("sender_name"),
    bankTime: integer("bank_time"),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [uniqueIndex("bank_notices_txn").on(t.provider, t.providerTransactionId)],
);

/** Every notice a provider URL received, with what Owo did with it and why (rejected ones included). */
export const providerNotices = sqliteTable(
  "provider_notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    providerAccountId: text("provider_account_id")
      .notNull()
      .references(() => providerAccounts.id),
    eventId: text("event_id"),
    paymentId: integer("payment_id").references(() => payments.id),
    /** notice: the provider told Owo; requery: Owo asked the provider (then eventId is null). */
    source: text("source", { enum: ["notice", "requery"] })
      .notNull()
      .default("notice"),
    /** forwarded: not Owo's transaction, passed on to the account's forwardUrl (webhooks/forwards.ts). */
    outcome: text("outcome", {
      enum: ["applied", "duplicate", "rejected", "no_payment", "ignored", "unchanged", "unanswered", "forwarded"],
    }).notNull(),
    reason: text("reason").notNull(),
    receivedAt: integer("received_at").notNull(),
    /**
     * Refused notices are kept in aggregate (a flood of forged ones is one row per account, payment and outcome an
     * hour): how many this row stands for, and when the latest came. Every other row stands for one.
     */
    count: integer("count").notNull().default(1),
    lastReceivedAt: integer("last_received_at"),
    /** For an aggregated row: outcome, payment and hour, unique per account, so a refusal is counted by one upsert. */
    aggregateKey: text("aggregate_key"),
  },
  (t) => [
    index("provider_notices_account").on(t.providerAccountId, t.receivedAt),
    index("provider_notices_payment").on(t.paymentId),
    uniqueIndex("provider_notices_aggregate").on(t.providerAccountId, t.aggregateKey),
  ],
);
