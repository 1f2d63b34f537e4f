CREATE TABLE `sandbox_bank_credits` (
	`transaction_id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`payment_reference` text NOT NULL,
	`reference` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	`fee_kobo` integer NOT NULL,
	`sent_at` integer NOT NULL,
	`settlement_id` text,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sandbox_bank_credits_open` ON `sandbox_bank_credits` (`merchant_id`,`settlement_id`);--> statement-breakpoint
CREATE INDEX `sandbox_bank_credits_reference` ON `sandbox_bank_credits` (`reference`);--> statement-breakpoint
CREATE TABLE `sandbox_bank_refunds` (
	`refund_id` text PRIMARY KEY NOT NULL,
	`reference` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	`paid_at` integer NOT NULL,
	`declined` integer NOT NULL,
	`settlement_id` text
);
--> statement-breakpoint
CREATE INDEX `sandbox_bank_refunds_reference` ON `sandbox_bank_refunds` (`reference`,`settlement_id`);--> statement-breakpoint
CREATE TABLE `settlement_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`settlement_id` text NOT NULL,
	`position` integer NOT NULL,
	`kind` text NOT NULL,
	`provider_transaction_id` text NOT NULL,
	`payment_reference` text,
	`provider_reference` text,
	`gross_kobo` integer NOT NULL,
	`fee_kobo` integer NOT NULL,
	`net_kobo` integer NOT NULL,
	`matched` integer NOT NULL,
	FOREIGN KEY (`settlement_id`) REFERENCES `settlements`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `settlement_lines_position` ON `settlement_lines` (`settlement_id`,`position`);--> statement-breakpoint
CREATE INDEX `settlement_lines_transaction` ON `settlement_lines` (`provider_transaction_id`);--> statement-breakpoint
CREATE TABLE `settlements` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`provider` text NOT NULL,
	`provider_id` text NOT NULL,
	`provider_settlement_id` text NOT NULL,
	`status` text NOT NULL,
	`destination` text NOT NULL,
	`currency` text NOT NULL,
	`gross_kobo` integer NOT NULL,
	`fee_kobo` integer NOT NULL,
	`refund_kobo` integer NOT NULL,
	`adjustment_kobo` integer NOT NULL,
	`net_kobo` integer NOT NULL,
	`line_count` integer NOT NULL,
	`settled_at` integer,
	`bank_reference` text,
	`reconciliation_status` text DEFAULT 'unchecked' NOT NULL,
	`exception_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `settlements_provider_settlement` ON `settlements` (`merchant_id`,`mode`,`provider_id`,`provider_settlement_id`);--> statement-breakpoint
CREATE INDEX `settlements_list` ON `settlements` (`merchant_id`,`mode`,`created_at`,`id`);