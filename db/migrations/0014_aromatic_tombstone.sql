CREATE TABLE `ledger_balances` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`account` text NOT NULL,
	`balance_kobo` integer NOT NULL,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_balances_account` ON `ledger_balances` (`merchant_id`,`mode`,`account`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`sequence` integer NOT NULL,
	`kind` text NOT NULL,
	`reason` text,
	`payment_id` integer,
	`payment_reference` text,
	`refund_reference` text,
	`settlement_id` text,
	`reverses_entry_id` text,
	`posted_at` integer NOT NULL,
	`hash` text NOT NULL,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_sequence` ON `ledger_entries` (`merchant_id`,`mode`,`sequence`);--> statement-breakpoint
CREATE INDEX `ledger_entries_payment` ON `ledger_entries` (`payment_id`);--> statement-breakpoint
CREATE INDEX `ledger_entries_posted` ON `ledger_entries` (`merchant_id`,`mode`,`posted_at`);--> statement-breakpoint
CREATE TABLE `ledger_heads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`sequence` integer NOT NULL,
	`hash` text NOT NULL,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_heads_books` ON `ledger_heads` (`merchant_id`,`mode`);--> statement-breakpoint
CREATE TABLE `ledger_postings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entry_id` text NOT NULL,
	`line` integer NOT NULL,
	`account` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_postings_line` ON `ledger_postings` (`entry_id`,`line`);