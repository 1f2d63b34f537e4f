CREATE TABLE `access_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`secret_id` text NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`secret_id`) REFERENCES `api_secrets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`public_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_public_key_unique` ON `api_keys` (`public_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_merchant_mode` ON `api_keys` (`merchant_id`,`mode`);--> statement-breakpoint
CREATE TABLE `api_secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`api_key_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`last4` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_secrets_secret_hash_unique` ON `api_secrets` (`secret_hash`);--> statement-breakpoint
CREATE INDEX `api_secrets_key` ON `api_secrets` (`api_key_id`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`merchant_id` text NOT NULL,
	`user_id` text,
	`action` text NOT NULL,
	`target` text,
	`detail_json` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_log_merchant` ON `audit_log` (`merchant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `bank_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider` text NOT NULL,
	`provider_transaction_id` text NOT NULL,
	`payment_id` integer NOT NULL,
	`kind` text NOT NULL,
	`amount_kobo` integer DEFAULT 0 NOT NULL,
	`sender_name` text,
	`bank_time` integer,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bank_notices_txn` ON `bank_notices` (`provider`,`provider_transaction_id`);--> statement-breakpoint
CREATE TABLE `deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`outbox_id` integer NOT NULL,
	`merchant_id` text NOT NULL,
	`destination` text NOT NULL,
	`endpoint_id` text,
	`url` text NOT NULL,
	`status` text NOT NULL,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_until` integer,
	`last_status_code` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`outbox_id`) REFERENCES `outbox`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `deliveries_due` ON `deliveries` (`next_attempt_at`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `deliveries_outbox` ON `deliveries` (`outbox_id`);--> statement-breakpoint
CREATE INDEX `deliveries_endpoint` ON `deliveries` (`endpoint_id`);--> statement-breakpoint
CREATE TABLE `delivery_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` integer NOT NULL,
	`attempted_at` integer NOT NULL,
	`status_code` integer,
	`latency_ms` integer NOT NULL,
	`response_snippet` text,
	`error` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `delivery_attempts_delivery` ON `delivery_attempts` (`delivery_id`);--> statement-breakpoint
CREATE TABLE `invites` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`email` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`accepted_by` text,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`accepted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invites_token_hash_unique` ON `invites` (`token_hash`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`user_id` text NOT NULL,
	`merchant_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `merchant_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `memberships_merchant` ON `memberships` (`merchant_id`);--> statement-breakpoint
CREATE TABLE `merchants` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`default_callback_url` text,
	`default_redirect_url` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`payment_id` integer NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`event` text NOT NULL,
	`sequence` integer NOT NULL,
	`payload_json` text NOT NULL,
	`created_at` integer NOT NULL,
	`fanned_out_at` integer,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_event_id_unique` ON `outbox` (`event_id`);--> statement-breakpoint
CREATE INDEX `outbox_pending` ON `outbox` (`id`) WHERE fanned_out_at is null;--> statement-breakpoint
CREATE INDEX `outbox_payment` ON `outbox` (`payment_id`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payment_id` integer NOT NULL,
	`sequence` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`amount_kobo` integer,
	`detail_json` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_events_sequence` ON `payment_events` (`payment_id`,`sequence`);--> statement-breakpoint
CREATE TABLE `payment_links` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`amount_kobo` integer,
	`min_kobo` integer,
	`max_kobo` integer,
	`channels` text NOT NULL,
	`single_use` integer NOT NULL,
	`active` integer NOT NULL,
	`callback_url` text NOT NULL,
	`redirect_url` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_links_slug_unique` ON `payment_links` (`slug`);--> statement-breakpoint
CREATE INDEX `payment_links_merchant` ON `payment_links` (`merchant_id`,`mode`,`created_at`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`payment_reference` text NOT NULL,
	`linking_reference` text NOT NULL,
	`payment_type` text NOT NULL,
	`status` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	`amount_paid_kobo` integer DEFAULT 0 NOT NULL,
	`amount_to_refund_kobo` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`country` text NOT NULL,
	`full_name` text NOT NULL,
	`mobile_number` text NOT NULL,
	`email` text NOT NULL,
	`callback_url` text NOT NULL,
	`redirect_url` text NOT NULL,
	`bank_code` text,
	`provider_reference` text,
	`dial_code` text,
	`account_number` text,
	`account_bank_name` text,
	`wallet_name` text,
	`request_fingerprint` text NOT NULL,
	`answer_json` text NOT NULL,
	`source` text NOT NULL,
	`link_id` text,
	`event_sequence` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`link_id`) REFERENCES `payment_links`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_linking_reference_unique` ON `payments` (`linking_reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_reference` ON `payments` (`merchant_id`,`mode`,`payment_reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_reference` ON `payments` (`bank_code`,`provider_reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_account_number` ON `payments` (`account_number`);--> statement-breakpoint
CREATE INDEX `payments_list` ON `payments` (`merchant_id`,`mode`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `payments_email` ON `payments` (`merchant_id`,`mode`,`email`);--> statement-breakpoint
CREATE INDEX `payments_mobile` ON `payments` (`merchant_id`,`mode`,`mobile_number`);--> statement-breakpoint
CREATE INDEX `payments_open_expiry` ON `payments` (`expires_at`) WHERE status in ('PENDING','PARTIALLY_PAID');--> statement-breakpoint
CREATE INDEX `payments_link` ON `payments` (`link_id`);--> statement-breakpoint
CREATE TABLE `signing_secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`secret_enc` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `signing_secrets_merchant_mode` ON `signing_secrets` (`merchant_id`,`mode`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_merchant` ON `webhook_endpoints` (`merchant_id`,`mode`);