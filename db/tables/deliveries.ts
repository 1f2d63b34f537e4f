// What Owo tells others: the outbox, webhook endpoints, callback deliveries and their attempts, and mail.
// Times are integer milliseconds since the epoch (UTC); money is integer kobo.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { payments } from "./payments";
import { merchants, users } from "./people";
import { providerAccounts } from "./providers";

/** Events the merchant must hear of, written in the same transaction as the state change. */
export const outbox = sqliteTable(
  "outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: text("event_id").notNull().unique(),
    /** Null for events about no one payment (settlement.paid, reconciliation.exception): endpoints only. */
    paymentId: integer("payment_id").references(() => payments.id),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    event: text("event").notNull(),
    sequence: integer("sequence").notNull(),
    payloadJson: text("payload_json").notNull(),
    createdAt: integer("created_at").notNull(),
    fannedOutAt: integer("fanned_out_at"),
  },
  (t) => [
    index("outbox_pending")
      .on(t.id)
      .where(sql`fanned_out_at is null`),
    index("outbox_payment").on(t.paymentId),
  ],
);

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
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
    outboxId: integer("outbox_id")
      .notNull()
      .references(() => outbox.id),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    /** forward: a provider's notice for the merchant's other sales, passed on to the account's forwardUrl. */
    destination: text("destination", { enum: ["callback", "endpoint", "forward"] }).notNull(),
    endpointId: text("endpoint_id").references(() => webhookEndpoints.id),
    /** A forward's provider account: the Providers page lists its recent forwards. */
    providerAccountId: text("provider_account_id").references(() => providerAccounts.id),
    url: text("url").notNull(),
    /** The url's host as `hostKey` (server/webhooks/deliveries.ts) names it: a claim takes the oldest few due of each. */
    host: text("host").notNull().default(""),
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
    index("deliveries_due")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    // A claim walks the hosts with pending deliveries and reads each one's oldest due, however long its backlog.
    index("deliveries_due_by_host")
      .on(t.host, t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("deliveries_outbox").on(t.outboxId),
    index("deliveries_endpoint").on(t.endpointId),
    index("deliveries_provider_account").on(t.providerAccountId, t.id),
  ],
);

export const deliveryAttempts = sqliteTable(
  "delivery_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => deliveries.id),
    attemptedAt: integer("attempted_at").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    responseSnippet: text("response_snippet"),
    error: text("error"),
  },
  (t) => [index("delivery_attempts_delivery").on(t.deliveryId)],
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
    index("mails_due")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("mails_merchant").on(t.merchantId, t.id),
    index("mails_user").on(t.userId, t.id),
  ],
);
