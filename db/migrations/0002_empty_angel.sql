CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`until` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `provider_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`provider` text NOT NULL,
	`priority` integer NOT NULL,
	`base_url` text NOT NULL,
	`credentials_enc` text NOT NULL,
	`credentials_last4` text NOT NULL,
	`provider_test_mode` integer NOT NULL,
	`created_at` integer NOT NULL,
	`disconnected_at` integer,
	`last_success_at` integer,
	`last_failure_at` integer,
	`last_failure` text,
	`failure_window_start` integer,
	`failure_count` integer DEFAULT 0 NOT NULL,
	`resting_until` integer,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `provider_accounts_merchant` ON `provider_accounts` (`merchant_id`,`priority`);--> statement-breakpoint
CREATE TABLE `provider_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider_account_id` text NOT NULL,
	`event_id` text,
	`payment_id` integer,
	`outcome` text NOT NULL,
	`reason` text NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`provider_account_id`) REFERENCES `provider_accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `provider_notices_account` ON `provider_notices` (`provider_account_id`,`received_at`);--> statement-breakpoint
CREATE INDEX `provider_notices_payment` ON `provider_notices` (`payment_id`);--> statement-breakpoint
DROP INDEX `payments_provider_reference`;--> statement-breakpoint
DROP INDEX `payments_account_number`;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider` text DEFAULT 'sandbox' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_account_id` text REFERENCES provider_accounts(id);--> statement-breakpoint
ALTER TABLE `payments` ADD `issue_reference` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `reserved_at` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `next_requery_at` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `requery_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `last_provider_answer_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_account_reference` ON `payments` (`provider_account_id`,`provider_reference`) WHERE provider_account_id is not null;--> statement-breakpoint
CREATE INDEX `payments_issue_reference` ON `payments` (`issue_reference`);--> statement-breakpoint
CREATE INDEX `payments_reserved` ON `payments` (`reserved_at`) WHERE reserved_at is not null;--> statement-breakpoint
CREATE INDEX `payments_requery_due` ON `payments` (`next_requery_at`) WHERE next_requery_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_reference` ON `payments` (`bank_code`,`provider_reference`) WHERE provider_account_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_account_number` ON `payments` (`account_number`) WHERE provider_account_id is null;