// Who uses Owo: merchants, the people on their teams, and what keeps their accounts safe (sessions, second factors, single-use links, lockouts).
// Times are integer milliseconds since the epoch (UTC); money is integer kobo.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const merchants = sqliteTable("merchants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  defaultCallbackUrl: text("default_callback_url"),
  defaultRedirectUrl: text("default_redirect_url"),
  createdAt: integer("created_at").notNull(),
  /** An owner's choice: everyone on the team must sign in with two factors (one without is sent to set it up first). */
  requireTwoFactor: integer("require_two_factor", { mode: "boolean" }).notNull().default(false),
  /** The business profile its customers see on the checkout and receipts: how to reach the merchant, and its logo. */
  supportEmail: text("support_email"),
  supportPhone: text("support_phone"),
  /** The merchant's current logo (merchant_logos.id); a new upload gets a new id, so its address can be cached for good. */
  logoId: text("logo_id"),
});

/** A merchant's uploaded logo: a checked raster image (PNG, JPEG or WebP), kept in the database so every instance serves it. */
export const merchantLogos = sqliteTable(
  "merchant_logos",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    contentType: text("content_type").notNull(),
    /** The image's bytes in base64: text reads the same in both databases Owo runs on. */
    bytesBase64: text("bytes_base64").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("merchant_logos_merchant").on(t.merchantId)],
);

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
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
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
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    failedAt: integer("failed_at").notNull(),
  },
  (t) => [index("second_factor_failures_user").on(t.userId, t.failedAt)],
);

/** Single-use links mailed to a person (verify the e-mail, reset the password); only the token's SHA-256 is kept. */
export const accountTokens = sqliteTable(
  "account_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
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
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
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
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    role: text("role", { enum: ["owner", "admin", "developer", "viewer"] }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.merchantId] }), index("memberships_merchant").on(t.merchantId)],
);

export const invites = sqliteTable("invites", {
  id: text("id").primaryKey(),
  merchantId: text("merchant_id")
    .notNull()
    .references(() => merchants.id),
  role: text("role", { enum: ["owner", "admin", "developer", "viewer"] }).notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  email: text("email"),
  createdBy: text("created_by")
    .notNull()
    .references(() => users.id),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  acceptedAt: integer("accepted_at"),
  acceptedBy: text("accepted_by").references(() => users.id),
});

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    userId: text("user_id"),
    action: text("action").notNull(),
    target: text("target"),
    detailJson: text("detail_json").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("audit_log_merchant").on(t.merchantId, t.createdAt)],
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
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
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
