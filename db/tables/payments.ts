// Payments and what happens to them: payment links, the payment rows, their timelines and refunds.
// Times are integer milliseconds since the epoch (UTC); money is integer kobo.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { merchants } from "./people";
import { providerAccounts } from "./providers";

export const paymentLinks = sqliteTable(
  "payment_links",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    amountKobo: integer("amount_kobo"),
    minKobo: integer("min_kobo"),
    maxKobo: integer("max_kobo"),
    channels: text("channels").notNull(),
    singleUse: integer("single_use", { mode: "boolean" }).notNull(),
    active: integer("active", { mode: "boolean" }).notNull(),
    callbackUrl: text("callback_url").notNull(),
    redirectUrl: text("redirect_url").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("payment_links_merchant").on(t.merchantId, t.mode, t.createdAt)],
);

export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    paymentReference: text("payment_reference").notNull(),
    linkingReference: text("linking_reference").notNull().unique(),
    /** Null for a standard-checkout payment until its customer chooses a channel. */
    paymentType: text("payment_type", { enum: ["USSD", "TRANSFER"] }),
    status: text("status", { enum: ["PENDING", "PARTIALLY_PAID", "SUCCESSFUL", "FAILED", "EXPIRED", "CANCELLED"] }).notNull(),
    amountKobo: integer("amount_kobo").notNull(),
    amountPaidKobo: integer("amount_paid_kobo").notNull().default(0),
    amountToRefundKobo: integer("amount_to_refund_kobo").notNull().default(0),
    /** The sum of this payment's PROCESSED refunds, kept with the row so verify reads one row. */
    amountRefundedKobo: integer("amount_refunded_kobo").notNull().default(0),
    /** The fees charged on every credit of this payment (API.md "Fees"), kept with the row as its ledger entries post. */
    feeKobo: integer("fee_kobo").notNull().default(0),
    /** The latest paid settlement holding one of its credits (verify's `settlementId`); kept with the row so verify reads one row. */
    settlementId: text("settlement_id"),
    currency: text("currency").notNull(),
    country: text("country").notNull(),
    fullName: text("full_name").notNull(),
    mobileNumber: text("mobile_number").notNull(),
    email: text("email").notNull(),
    callbackUrl: text("callback_url").notNull(),
    redirectUrl: text("redirect_url").notNull(),
    bankCode: text("bank_code"),
    providerReference: text("provider_reference"),
    dialCode: text("dial_code"),
    accountNumber: text("account_number"),
    accountBankName: text("account_bank_name"),
    walletName: text("wallet_name"),
    /** Who issued the code or account (API.md verify `provider`); the account is null for the sandbox bank. */
    provider: text("provider", { enum: ["sandbox", "paystack", "flutterwave", "seerbit"] })
      .notNull()
      .default("sandbox"),
    providerAccountId: text("provider_account_id").references(() => providerAccounts.id),
    /** Owo's reference for the attempt that issued: what the provider knows the payment by (query, notices). */
    issueReference: text("issue_reference"),
    /** Set while the reference is reserved and a provider is being asked; null once the answer is recorded. */
    reservedAt: integer("reserved_at"),
    /** Requery (API.md "Requery"): when to ask the provider next, and when it last answered. */
    nextRequeryAt: integer("next_requery_at"),
    requeryCount: integer("requery_count").notNull().default(0),
    lastProviderAnswerAt: integer("last_provider_answer_at"),
    /** Canonical form of the request, to tell a replay from a different request. */
    requestFingerprint: text("request_fingerprint").notNull(),
    /** The exact `payments` object first answered, replayed byte for byte. */
    answerJson: text("answer_json").notNull(),
    source: text("source", { enum: ["rest", "trpc", "dashboard", "link", "seed"] }).notNull(),
    linkId: text("link_id").references(() => paymentLinks.id),
    eventSequence: integer("event_sequence").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    paidAt: integer("paid_at"),
  },
  (t) => [
    uniqueIndex("payments_reference").on(t.merchantId, t.mode, t.paymentReference),
    // The sandbox bank never reuses a number; live providers do (temporary accounts), so live payments are
    // told apart by provider account + provider reference instead.
    uniqueIndex("payments_provider_reference")
      .on(t.bankCode, t.providerReference)
      .where(sql`provider_account_id is null`),
    uniqueIndex("payments_account_number")
      .on(t.accountNumber)
      .where(sql`provider_account_id is null`),
    uniqueIndex("payments_provider_account_reference")
      .on(t.providerAccountId, t.providerReference)
      .where(sql`provider_account_id is not null`),
    index("payments_issue_reference").on(t.issueReference),
    index("payments_reserved")
      .on(t.reservedAt)
      .where(sql`reserved_at is not null`),
    index("payments_requery_due")
      .on(t.nextRequeryAt)
      .where(sql`next_requery_at is not null`),
    index("payments_list").on(t.merchantId, t.mode, t.createdAt, t.id),
    index("payments_email").on(t.merchantId, t.mode, t.email),
    index("payments_mobile").on(t.merchantId, t.mode, t.mobileNumber),
    index("payments_open_expiry")
      .on(t.expiresAt)
      .where(sql`status in ('PENDING','PARTIALLY_PAID')`),
    index("payments_link").on(t.linkId),
  ],
);

/** The payment's timeline; `sequence` counts from 1 per payment and is what callbacks carry. */
export const paymentEvents = sqliteTable(
  "payment_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    sequence: integer("sequence").notNull(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    amountKobo: integer("amount_kobo"),
    detailJson: text("detail_json").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("payment_events_sequence").on(t.paymentId, t.sequence)],
);

/**
 * Money paid back to the customer. A row is reserved (PENDING) in the transaction that checks what is refundable,
 * before the provider is asked, so racing requests can never together exceed what arrived.
 */
export const refunds = sqliteTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** The merchant's (or Owo's RFD… when none was sent); a repeat with the same one answers the first refund. */
    refundReference: text("refund_reference").notNull(),
    amountKobo: integer("amount_kobo").notNull(),
    reason: text("reason").notNull(),
    status: text("status", { enum: ["PENDING", "NEEDS_ATTENTION", "PROCESSED", "FAILED"] }).notNull(),
    /** Who pays it back: the provider that served the payment, and its account (null for the sandbox bank). */
    provider: text("provider", { enum: ["sandbox", "paystack", "flutterwave", "seerbit"] }).notNull(),
    providerAccountId: text("provider_account_id").references(() => providerAccounts.id),
    /** The provider's id for the refund; null until the provider accepted it. */
    providerRefundId: text("provider_refund_id"),
    failureReason: text("failure_reason"),
    /**
     * When a submission got no usable answer after it may have reached the provider (a timeout, a 5xx, a reset): the
     * refund may exist there, so it is never sent again before the provider is asked, and never failed by Owo alone.
     * Null when every submission certainly never reached it (or once the provider's answer is known).
     */
    unansweredAt: integer("unanswered_at"),
    /** Times the provider was asked (submission or query); the follower backs off on it. */
    checks: integer("checks").notNull().default(0),
    /** When the follower next asks the provider; null once PROCESSED or FAILED. */
    nextCheckAt: integer("next_check_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    settledAt: integer("settled_at"),
  },
  (t) => [
    uniqueIndex("refunds_reference").on(t.paymentId, t.refundReference),
    index("refunds_provider_refund").on(t.provider, t.providerRefundId),
    index("refunds_due")
      .on(t.nextCheckAt)
      .where(sql`status in ('PENDING', 'NEEDS_ATTENTION')`),
  ],
);
