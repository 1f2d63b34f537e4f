CREATE TABLE `reconciliation_exceptions` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`kind` text NOT NULL,
	`settlement_id` text,
	`payment_reference` text,
	`subject` text NOT NULL,
	`expected_kobo` integer,
	`actual_kobo` integer,
	`opened_at` integer NOT NULL,
	`resolved_at` integer,
	`note` text,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`settlement_id`) REFERENCES `settlements`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reconciliation_exceptions_finding` ON `reconciliation_exceptions` (`merchant_id`,`mode`,`kind`,`subject`);--> statement-breakpoint
CREATE INDEX `reconciliation_exceptions_open` ON `reconciliation_exceptions` (`merchant_id`,`mode`,`resolved_at`);