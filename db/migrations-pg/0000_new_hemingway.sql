CREATE TABLE "access_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"secret_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint,
	CONSTRAINT "account_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"public_key" text NOT NULL,
	"created_at" bigint NOT NULL,
	"revoked_at" bigint,
	CONSTRAINT "api_keys_public_key_unique" UNIQUE("public_key")
);
--> statement-breakpoint
CREATE TABLE "api_secrets" (
	"id" text PRIMARY KEY NOT NULL,
	"api_key_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"last4" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint,
	CONSTRAINT "api_secrets_secret_hash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"user_id" text,
	"action" text NOT NULL,
	"target" text,
	"detail_json" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"provider_transaction_id" text NOT NULL,
	"payment_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"amount_kobo" bigint DEFAULT 0 NOT NULL,
	"sender_name" text,
	"bank_time" bigint,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"outbox_id" bigint NOT NULL,
	"merchant_id" text NOT NULL,
	"destination" text NOT NULL,
	"endpoint_id" text,
	"url" text NOT NULL,
	"status" text NOT NULL,
	"attempt_count" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"lease_until" bigint,
	"last_status_code" bigint,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"finished_at" bigint
);
--> statement-breakpoint
CREATE TABLE "delivery_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"attempted_at" bigint NOT NULL,
	"status_code" bigint,
	"latency_ms" bigint NOT NULL,
	"response_snippet" text,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"email" text,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"accepted_at" bigint,
	"accepted_by" text,
	CONSTRAINT "invites_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "known_devices" (
	"user_id" text NOT NULL,
	"device_hash" text NOT NULL,
	"user_agent" text NOT NULL,
	"ip" text,
	"first_seen_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	CONSTRAINT "known_devices_user_id_device_hash_pk" PRIMARY KEY("user_id","device_hash")
);
--> statement-breakpoint
CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" text,
	"user_id" text,
	"to_address" text NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"status" text NOT NULL,
	"attempt_count" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"lease_until" bigint,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"sent_at" bigint
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"user_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "memberships_user_id_merchant_id_pk" PRIMARY KEY("user_id","merchant_id")
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"default_callback_url" text,
	"default_redirect_url" text,
	"created_at" bigint NOT NULL,
	"require_two_factor" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"payment_id" bigint NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"event" text NOT NULL,
	"sequence" bigint NOT NULL,
	"payload_json" text NOT NULL,
	"created_at" bigint NOT NULL,
	"fanned_out_at" bigint,
	CONSTRAINT "outbox_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" bigint NOT NULL,
	"sequence" bigint NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"amount_kobo" bigint,
	"detail_json" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_links" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"amount_kobo" bigint,
	"min_kobo" bigint,
	"max_kobo" bigint,
	"channels" text NOT NULL,
	"single_use" boolean NOT NULL,
	"active" boolean NOT NULL,
	"callback_url" text NOT NULL,
	"redirect_url" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "payment_links_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"payment_reference" text NOT NULL,
	"linking_reference" text NOT NULL,
	"payment_type" text,
	"status" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"amount_paid_kobo" bigint DEFAULT 0 NOT NULL,
	"amount_to_refund_kobo" bigint DEFAULT 0 NOT NULL,
	"amount_refunded_kobo" bigint DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"country" text NOT NULL,
	"full_name" text NOT NULL,
	"mobile_number" text NOT NULL,
	"email" text NOT NULL,
	"callback_url" text NOT NULL,
	"redirect_url" text NOT NULL,
	"bank_code" text,
	"provider_reference" text,
	"dial_code" text,
	"account_number" text,
	"account_bank_name" text,
	"wallet_name" text,
	"provider" text DEFAULT 'sandbox' NOT NULL,
	"provider_account_id" text,
	"issue_reference" text,
	"reserved_at" bigint,
	"next_requery_at" bigint,
	"requery_count" bigint DEFAULT 0 NOT NULL,
	"last_provider_answer_at" bigint,
	"request_fingerprint" text NOT NULL,
	"answer_json" text NOT NULL,
	"source" text NOT NULL,
	"link_id" text,
	"event_sequence" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"paid_at" bigint,
	CONSTRAINT "payments_linking_reference_unique" UNIQUE("linking_reference")
);
--> statement-breakpoint
CREATE TABLE "provider_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"provider" text NOT NULL,
	"priority" bigint NOT NULL,
	"base_url" text NOT NULL,
	"credentials_enc" text NOT NULL,
	"credentials_last4" text NOT NULL,
	"provider_test_mode" boolean NOT NULL,
	"created_at" bigint NOT NULL,
	"disconnected_at" bigint,
	"last_success_at" bigint,
	"last_failure_at" bigint,
	"last_failure" text,
	"failure_window_start" bigint,
	"failure_count" bigint DEFAULT 0 NOT NULL,
	"resting_until" bigint
);
--> statement-breakpoint
CREATE TABLE "provider_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_account_id" text NOT NULL,
	"event_id" text,
	"payment_id" bigint,
	"source" text DEFAULT 'notice' NOT NULL,
	"outcome" text NOT NULL,
	"reason" text NOT NULL,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"used_at" bigint,
	CONSTRAINT "recovery_codes_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" bigint NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"refund_reference" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"provider_account_id" text,
	"provider_refund_id" text,
	"failure_reason" text,
	"checks" bigint DEFAULT 0 NOT NULL,
	"next_check_at" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"settled_at" bigint
);
--> statement-breakpoint
CREATE TABLE "second_factor_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"failed_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"ended_at" bigint,
	"ended_reason" text
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" bigint NOT NULL,
	"last_failure_at" bigint NOT NULL,
	"locked_until" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_secrets" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"secret_enc" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"email_verified_at" bigint,
	"totp_secret_enc" text,
	"totp_enabled_at" bigint,
	"totp_last_step" bigint,
	"totp_pending_enc" text,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"enabled" boolean NOT NULL,
	"disabled_reason" text,
	"deleted_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_secret_id_api_secrets_id_fk" FOREIGN KEY ("secret_id") REFERENCES "public"."api_secrets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_secrets" ADD CONSTRAINT "api_secrets_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_notices" ADD CONSTRAINT "bank_notices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_outbox_id_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."outbox"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mails" ADD CONSTRAINT "mails_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mails" ADD CONSTRAINT "mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_provider_account_id_provider_accounts_id_fk" FOREIGN KEY ("provider_account_id") REFERENCES "public"."provider_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_link_id_payment_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."payment_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_accounts" ADD CONSTRAINT "provider_accounts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_notices" ADD CONSTRAINT "provider_notices_provider_account_id_provider_accounts_id_fk" FOREIGN KEY ("provider_account_id") REFERENCES "public"."provider_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_notices" ADD CONSTRAINT "provider_notices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_provider_account_id_provider_accounts_id_fk" FOREIGN KEY ("provider_account_id") REFERENCES "public"."provider_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_factor_failures" ADD CONSTRAINT "second_factor_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_secrets" ADD CONSTRAINT "signing_secrets_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_tokens_user" ON "account_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_merchant_mode" ON "api_keys" USING btree ("merchant_id","mode");--> statement-breakpoint
CREATE INDEX "api_secrets_key" ON "api_secrets" USING btree ("api_key_id");--> statement-breakpoint
CREATE INDEX "audit_log_merchant" ON "audit_log" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_notices_txn" ON "bank_notices" USING btree ("provider","provider_transaction_id");--> statement-breakpoint
CREATE INDEX "deliveries_due" ON "deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "deliveries_outbox" ON "deliveries" USING btree ("outbox_id");--> statement-breakpoint
CREATE INDEX "deliveries_endpoint" ON "deliveries" USING btree ("endpoint_id");--> statement-breakpoint
CREATE INDEX "delivery_attempts_delivery" ON "delivery_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "mails_due" ON "mails" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "mails_merchant" ON "mails" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "mails_user" ON "mails" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "memberships_merchant" ON "memberships" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "outbox_pending" ON "outbox" USING btree ("id") WHERE fanned_out_at is null;--> statement-breakpoint
CREATE INDEX "outbox_payment" ON "outbox" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_sequence" ON "payment_events" USING btree ("payment_id","sequence");--> statement-breakpoint
CREATE INDEX "payment_links_merchant" ON "payment_links" USING btree ("merchant_id","mode","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_reference" ON "payments" USING btree ("merchant_id","mode","payment_reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_reference" ON "payments" USING btree ("bank_code","provider_reference") WHERE provider_account_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_account_number" ON "payments" USING btree ("account_number") WHERE provider_account_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_account_reference" ON "payments" USING btree ("provider_account_id","provider_reference") WHERE provider_account_id is not null;--> statement-breakpoint
CREATE INDEX "payments_issue_reference" ON "payments" USING btree ("issue_reference");--> statement-breakpoint
CREATE INDEX "payments_reserved" ON "payments" USING btree ("reserved_at") WHERE reserved_at is not null;--> statement-breakpoint
CREATE INDEX "payments_requery_due" ON "payments" USING btree ("next_requery_at") WHERE next_requery_at is not null;--> statement-breakpoint
CREATE INDEX "payments_list" ON "payments" USING btree ("merchant_id","mode","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_email" ON "payments" USING btree ("merchant_id","mode","email");--> statement-breakpoint
CREATE INDEX "payments_mobile" ON "payments" USING btree ("merchant_id","mode","mobile_number");--> statement-breakpoint
CREATE INDEX "payments_open_expiry" ON "payments" USING btree ("expires_at") WHERE status in ('PENDING','PARTIALLY_PAID');--> statement-breakpoint
CREATE INDEX "payments_link" ON "payments" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "provider_accounts_merchant" ON "provider_accounts" USING btree ("merchant_id","priority");--> statement-breakpoint
CREATE INDEX "provider_notices_account" ON "provider_notices" USING btree ("provider_account_id","received_at");--> statement-breakpoint
CREATE INDEX "provider_notices_payment" ON "provider_notices" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "recovery_codes_user" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_reference" ON "refunds" USING btree ("payment_id","refund_reference");--> statement-breakpoint
CREATE INDEX "refunds_provider_refund" ON "refunds" USING btree ("provider","provider_refund_id");--> statement-breakpoint
CREATE INDEX "refunds_due" ON "refunds" USING btree ("next_check_at") WHERE status = 'PENDING';--> statement-breakpoint
CREATE INDEX "second_factor_failures_user" ON "second_factor_failures" USING btree ("user_id","failed_at");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "signing_secrets_merchant_mode" ON "signing_secrets" USING btree ("merchant_id","mode");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_merchant" ON "webhook_endpoints" USING btree ("merchant_id","mode");