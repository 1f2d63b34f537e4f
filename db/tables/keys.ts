// Machine credentials: API key pairs, their secrets, the access tokens exchanged for them, and callback signing secrets.
// Times are integer milliseconds since the epoch (UTC); money is integer kobo.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { merchants } from "./people";

/** One key pair per merchant and mode; the public key never changes, secrets roll. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
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
    apiKeyId: text("api_key_id")
      .notNull()
      .references(() => apiKeys.id),
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
  secretId: text("secret_id")
    .notNull()
    .references(() => apiSecrets.id),
  merchantId: text("merchant_id")
    .notNull()
    .references(() => merchants.id),
  mode: text("mode", { enum: ["test", "live"] }).notNull(),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

/** Callback signing secrets, AES-256-GCM under OWO_MASTER_KEY: signing needs them back. */
export const signingSecrets = sqliteTable(
  "signing_secrets",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    secretEnc: text("secret_enc").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
  },
  (t) => [index("signing_secrets_merchant_mode").on(t.merchantId, t.mode)],
);
