// The whole data model. Times are integer milliseconds since the epoch (UTC); money is integer kobo.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const merchants = sqliteTable("merchants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  defaultCallbackUrl: text("default_callback_url"),
  defaultRedirectUrl: text("default_redirect_url"),
  createdAt: integer("created_at").notNull(),
  /** An owner's choice: everyone on the team must sign in with two factors (one without is sent to set it up first). */
  requireTwoFactor: integer("require_two_factor", { mode: "boolean" }).notNull().default(false),
});

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  createdAt: integer("created_at").notNull(),
  /** Set when the person opened the verification link mailed at sign-up; until then they may not invite, connect providers or go live. */
  emailVerifiedAt: integer("email_verified_at"),
  /** Two-factor sign-in (TOTP, RFC 6238): the secret sealed under OWO_MASTER_KEY (it must be read back to check codes). */
  totpSecretEnc: text("totp_secret_enc"),
  totpEnabledAt: integer("totp_enabled_at"),
  /** The last time-step whose code was accepted: a code is accepted once, and never one older than it. */
  totpLastStep: integer("totp_last_step"),
  /** A secret being enrolled (shown as a QR code), until a code from it is typed. */
  totpPendingEnc: text("totp_pending_enc"),
});

/** One-time recovery codes for two-factor sign-in, HMAC-SHA256 under the master key: shown once, used once. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull().references(() => users.id),
    codeHash: text("code_hash").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("recovery_codes_user").on(t.userId)],
);

/** Wrong two-factor codes, one row each: at most 5 per person per 15 minutes, counted here so every instance agrees. */
export const secondFactorFailures = sqliteTable(
  "second_factor_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull().references(() => users.id),
    failedAt: integer("failed_at").notNull(),
  },
  (t) => [index("second_factor_failures_user").on(t.userId, t.failedAt)],
);

/** Single-use links mailed to a person (verify the e-mail, reset the password); only the token's SHA-256 is kept. */
export const accountTokens = sqliteTable(
  "account_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    purpose: text("purpose", { enum: ["verify_email", "reset_password"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("account_tokens_user").on(t.userId, t.purpose)],
);

/** Browsers a person has signed in from (a random device cookie, stored hashed): a sign-in from any other is mailed. */
export const knownDevices = sqliteTable(
  "known_devices",
  {
    userId: text("user_id").notNull().references(() => users.id),
    deviceHash: text("device_hash").notNull(),
    userAgent: text("user_agent").notNull(),
    ip: text("ip"),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
);

export const memberships = sqliteTable(
  "memberships",
  {
    userId: text("user_id").notNull().references(() => users.id),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
    role: text("role", { enum: ["owner", "admin", "developer", "viewer"] }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.merchantId] }), index("memberships_merchant").on(t.merchantId)],
);

/** One key pair per merchant and mode; the public key never changes, secrets roll. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    publicKey: text("public_key").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_merchant_mode").on(t.merchantId, t.mode)],
);

/** Secret keys, stored as SHA-256 (they are 190-bit random strings, so a slow hash adds nothing). */
export const apiSecrets = sqliteTable(
  "api_secrets",
  {
    id: text("id").primaryKey(),
    apiKeyId: text("api_key_id").notNull().references(() => apiKeys.id),
    secretHash: text("secret_hash").notNull().unique(),
    last4: text("last4").notNull(),
    createdAt: integer("created_at").notNull(),
    /** null while current; set when rolled: the end of its grace period (or the roll time). */
    expiresAt: integer("expires_at"),
  },
  (t) => [index("api_secrets_key").on(t.apiKeyId)],
);

export const accessTokens = sqliteTable("access_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  secretId: text("secret_id").notNull().references(() => apiSecrets.id),
  merchantId: text("merchant_id").notNull().references(() => merchants.id),
  mode: text("mode", { enum: ["test", "live"] }).notNull(),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

/** Callback signing secrets, AES-256-GCM under OWO_MASTER_KEY: signing needs them back. */
export const signingSecrets = sqliteTable(
  "signing_secrets",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    secretEnc: text("secret_enc").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
  },
  (t) => [index("signing_secrets_merchant_mode").on(t.merchantId, t.mode)],
);

export const paymentLinks = sqliteTable(
  "payment_links",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
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

/** A merchant's account at a bank-side provider; credentials sealed under OWO_MASTER_KEY, shown by their last 4. */
export const providerAccounts = sqliteTable(
  "provider_accounts",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
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
  },
  (t) => [index("provider_accounts_merchant").on(t.merchantId, t.priority)],
);

export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
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
    provider: text("provider", { enum: ["sandbox", "paystack", "flutterwave", "seerbit"] }).notNull().default("sandbox"),
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
    uniqueIndex("payments_provider_reference").on(t.bankCode, t.providerReference).where(sql`provider_account_id is null`),
    uniqueIndex("payments_account_number").on(t.accountNumber).where(sql`provider_account_id is null`),
    uniqueIndex("payments_provider_account_reference").on(t.providerAccountId, t.providerReference).where(sql`provider_account_id is not null`),
    index("payments_issue_reference").on(t.issueReference),
    index("payments_reserved").on(t.reservedAt).where(sql`reserved_at is not null`),
    index("payments_requery_due").on(t.nextRequeryAt).where(sql`next_requery_at is not null`),
    index("payments_list").on(t.merchantId, t.mode, t.createdAt, t.id),
    index("payments_email").on(t.merchantId, t.mode, t.email),
    index("payments_mobile").on(t.merchantId, t.mode, t.mobileNumber),
    index("payments_open_expiry").on(t.expiresAt).where(sql`status in ('PENDING','PARTIALLY_PAID')`),
    index("payments_link").on(t.linkId),
  ],
);

/** The payment's timeline; `sequence` counts from 1 per payment and is what callbacks carry. */
export const paymentEvents = sqliteTable(
  "payment_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    paymentId: integer("payment_id").notNull().references(() => payments.id),
    sequence: integer("sequence").notNull(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    amountKobo: integer("amount_kobo"),
    detailJson: text("detail_json").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("payment_events_sequence").on(t.paymentId, t.sequence)],
);

/** What the bank side told us; one row per provider transaction, so a repeated notice is a no-op. */
export const bankNotices = sqliteTable(
  "bank_notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    provider: text("provider").notNull(),
    providerTransactionId: text("provider_transaction_id").notNull(),
    paymentId: integer("payment_id").notNull().references(() => payments.id),
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
    providerAccountId: text("provider_account_id").notNull().references(() => providerAccounts.id),
    eventId: text("event_id"),
    paymentId: integer("payment_id").references(() => payments.id),
    /** notice: the provider told Owo; requery: Owo asked the provider (then eventId is null). */
    source: text("source", { enum: ["notice", "requery"] }).notNull().default("notice"),
    outcome: text("outcome", { enum: ["applied", "duplicate", "rejected", "no_payment", "ignored", "unchanged", "unanswered"] }).notNull(),
    reason: text("reason").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [index("provider_notices_account").on(t.providerAccountId, t.receivedAt), index("provider_notices_payment").on(t.paymentId)],
);

/** One holder at a time per named loop (the requery loop) across every process on this database. */
export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  until: integer("until").notNull(),
});

/**
 * Money paid back to the customer. A row is reserved (PENDING) in the transaction that checks what is refundable,
 * before the provider is asked, so racing requests can never together exceed what arrived.
 */
export const refunds = sqliteTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    paymentId: integer("payment_id").notNull().references(() => payments.id),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** The merchant's (or Owo's RFD… when none was sent); a repeat with the same one answers the first refund. */
    refundReference: text("refund_reference").notNull(),
    amountKobo: integer("amount_kobo").notNull(),
    reason: text("reason").notNull(),
    status: text("status", { enum: ["PENDING", "PROCESSED", "FAILED"] }).notNull(),
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
    index("refunds_due").on(t.nextCheckAt).where(sql`status = 'PENDING'`),
  ],
);

/** Events the merchant must hear of, written in the same transaction as the state change. */
export const outbox = sqliteTable(
  "outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: text("event_id").notNull().unique(),
    paymentId: integer("payment_id").notNull().references(() => payments.id),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    event: text("event").notNull(),
    sequence: integer("sequence").notNull(),
    payloadJson: text("payload_json").notNull(),
    createdAt: integer("created_at").notNull(),
    fannedOutAt: integer("fanned_out_at"),
  },
  (t) => [index("outbox_pending").on(t.id).where(sql`fanned_out_at is null`), index("outbox_payment").on(t.paymentId)],
);

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    disabledReason: text("disabled_reason"),
    deletedAt: integer("deleted_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("webhook_endpoints_merchant").on(t.merchantId, t.mode)],
);

export const deliveries = sqliteTable(
  "deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    outboxId: integer("outbox_id").notNull().references(() => outbox.id),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
    destination: text("destination", { enum: ["callback", "endpoint"] }).notNull(),
    endpointId: text("endpoint_id").references(() => webhookEndpoints.id),
    url: text("url").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed", "cancelled"] }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    leaseUntil: integer("lease_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [
    index("deliveries_due").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index("deliveries_outbox").on(t.outboxId),
    index("deliveries_endpoint").on(t.endpointId),
  ],
);

export const deliveryAttempts = sqliteTable(
  "delivery_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: integer("delivery_id").notNull().references(() => deliveries.id),
    attemptedAt: integer("attempted_at").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    responseSnippet: text("response_snippet"),
    error: text("error"),
  },
  (t) => [index("delivery_attempts_delivery").on(t.deliveryId)],
);

export const invites = sqliteTable("invites", {
  id: text("id").primaryKey(),
  merchantId: text("merchant_id").notNull().references(() => merchants.id),
  role: text("role", { enum: ["owner", "admin", "developer", "viewer"] }).notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  email: text("email"),
  createdBy: text("created_by").notNull().references(() => users.id),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  acceptedAt: integer("accepted_at"),
  acceptedBy: text("accepted_by").references(() => users.id),
});

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    merchantId: text("merchant_id").notNull().references(() => merchants.id),
    userId: text("user_id"),
    action: text("action").notNull(),
    target: text("target"),
    detailJson: text("detail_json").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("audit_log_merchant").on(t.merchantId, t.createdAt)],
);

/**
 * Mail Owo sends, written in the same transaction as what caused it and sent by the worker over SMTP.
 * With no SMTP configured it stays here, readable in the dashboard and from the CLI.
 */
export const mails = sqliteTable(
  "mails",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The team the mail is about (an invite, a key change); null for mail about a person's own account. */
    merchantId: text("merchant_id").references(() => merchants.id),
    /** The person it is addressed to, when they have an account. */
    userId: text("user_id").references(() => users.id),
    toAddress: text("to_address").notNull(),
    kind: text("kind").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    status: text("status", { enum: ["pending", "sent", "failed"] }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    leaseUntil: integer("lease_until"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
  },
  (t) => [
    index("mails_due").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index("mails_merchant").on(t.merchantId, t.id),
    index("mails_user").on(t.userId, t.id),
  ],
);

/**
 * Dashboard sessions. The next-auth cookie carries only the id; every door checks the row (cached at most
 * OWO_REVOCATION_SECONDS), so ending a row ends the cookie on every instance. `expiresAt` is absolute: renewal
 * (next-auth re-issuing the cookie) never moves it.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** The browser's User-Agent and client IP at sign-in, to tell sessions apart on the Sessions page. */
    userAgent: text("user_agent").notNull().default(""),
    ip: text("ip").notNull().default(""),
    endedAt: integer("ended_at"),
    endedReason: text("ended_reason", { enum: ["signed-out", "revoked", "password-changed", "all-revoked"] }),
    /** When this session last proved the second factor (at sign-in, or a fresh code for a sensitive action). */
    secondFactorAt: integer("second_factor_at"),
  },
  (t) => [index("sessions_user").on(t.userId, t.createdAt)],
);

/** Failed sign-ins per e-mail and per client IP (`email:…`, `ip:…`): the lockout's memory, shared by every instance. */
export const signInFailures = sqliteTable("sign_in_failures", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  lastFailureAt: integer("last_failure_at").notNull(),
  lockedUntil: integer("locked_until").notNull(),
});

/**
 * Rate-limit budgets shared by every instance on PostgreSQL (server/limits/shared-budgets.ts). A deployment on one
 * file is one process and keeps its budgets in memory (server/limits/token-bucket.ts), so there the table stays empty. One row per limited key (a merchant and
 * mode, a client IP), as GCRA keeps a token bucket: `fullAt` is when the bucket is full again, in microseconds since
 * the epoch by the database's clock, so a row whose `fullAt` has passed holds nothing and may be deleted. No index on
 * `fullAt`: every request rewrites it, and an index would cost more on each of those writes than the sweeper's scan
 * of a table that holds only the keys seen within one refill time. On PostgreSQL the table is unlogged
 * (db/migrations-pg/0004_rate_budgets_unlogged.sql): a crash empties it, which leaves every budget full.
 */
export const rateBudgets = sqliteTable("rate_budgets", {
  key: text("key").primaryKey(),
  fullAt: integer("full_at").notNull(),
  /** Whether the request that last wrote the row was granted: its answer, read back by the same statement. */
  granted: integer("granted", { mode: "boolean" }).notNull(),
});

export type SessionRow = typeof sessions.$inferSelect;
export type Mode = "test" | "live";
export type Role = "owner" | "admin" | "developer" | "viewer";
export type PaymentStatus = (typeof payments.$inferSelect)["status"];
export type PaymentRow = typeof payments.$inferSelect;
export type ProviderAccountRow = typeof providerAccounts.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
