PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`payment_reference` text NOT NULL,
	`linking_reference` text NOT NULL,
	`payment_type` text,
	`status` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	`amount_paid_kobo` integer DEFAULT 0 NOT NULL,
	`amount_to_refund_kobo` integer DEFAULT 0 NOT NULL,
	`amount_refunded_kobo` integer DEFAULT 0 NOT NULL,
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
	`provider` text DEFAULT 'sandbox' NOT NULL,
	`provider_account_id` text,
	`issue_reference` text,
	`reserved_at` integer,
	`next_requery_at` integer,
	`requery_count` integer DEFAULT 0 NOT NULL,
	`last_provider_answer_at` integer,
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
	FOREIGN KEY (`provider_account_id`) REFERENCES `provider_accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`link_id`) REFERENCES `payment_links`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_payments`("id", "merchant_id", "mode", "payment_reference", "linking_reference", "payment_type", "status", "amount_kobo", "amount_paid_kobo", "amount_to_refund_kobo", "amount_refunded_kobo", "currency", "country", "full_name", "mobile_number", "email", "callback_url", "redirect_url", "bank_code", "provider_reference", "dial_code", "account_number", "account_bank_name", "wallet_name", "provider", "provider_account_id", "issue_reference", "reserved_at", "next_requery_at", "requery_count", "last_provider_answer_at", "request_fingerprint", "answer_json", "source", "link_id", "event_sequence", "created_at", "updated_at", "expires_at", "paid_at") SELECT "id", "merchant_id", "mode", "payment_reference", "linking_reference", "payment_type", "status", "amount_kobo", "amount_paid_kobo", "amount_to_refund_kobo", "amount_refunded_kobo", "currency", "country", "full_name", "mobile_number", "email", "callback_url", "redirect_url", "bank_code", "provider_reference", "dial_code", "account_number", "account_bank_name", "wallet_name", "provider", "provider_account_id", "issue_reference", "reserved_at", "next_requery_at", "requery_count", "last_provider_answer_at", "request_fingerprint", "answer_json", "source", "link_id", "event_sequence", "created_at", "updated_at", "expires_at", "paid_at" FROM `payments`;--> statement-breakpoint
DROP TABLE `payments`;--> statement-breakpoint
ALTER TABLE `__new_payments` RENAME TO `payments`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_linking_reference_unique` ON `payments` (`linking_reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_reference` ON `payments` (`merchant_id`,`mode`,`payment_reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_reference` ON `payments` (`bank_code`,`provider_reference`) WHERE provider_account_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_account_number` ON `payments` (`account_number`) WHERE provider_account_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_account_reference` ON `payments` (`provider_account_id`,`provider_reference`) WHERE provider_account_id is not null;--> statement-breakpoint
CREATE INDEX `payments_issue_reference` ON `payments` (`issue_reference`);--> statement-breakpoint
CREATE INDEX `payments_reserved` ON `payments` (`reserved_at`) WHERE reserved_at is not null;--> statement-breakpoint
CREATE INDEX `payments_requery_due` ON `payments` (`next_requery_at`) WHERE next_requery_at is not null;--> statement-breakpoint
CREATE INDEX `payments_list` ON `payments` (`merchant_id`,`mode`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `payments_email` ON `payments` (`merchant_id`,`mode`,`email`);--> statement-breakpoint
CREATE INDEX `payments_mobile` ON `payments` (`merchant_id`,`mode`,`mobile_number`);--> statement-breakpoint
CREATE INDEX `payments_open_expiry` ON `payments` (`expires_at`) WHERE status in ('PENDING','PARTIALLY_PAID');--> statement-breakpoint
CREATE INDEX `payments_link` ON `payments` (`link_id`);