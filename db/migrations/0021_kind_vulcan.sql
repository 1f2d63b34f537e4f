CREATE TABLE `bank_statement_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`account_number` text NOT NULL,
	`date` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	`reference` text NOT NULL,
	`narration` text NOT NULL,
	`settlement_id` text,
	`imported_at` integer NOT NULL,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`settlement_id`) REFERENCES `settlements`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bank_statement_lines_same` ON `bank_statement_lines` (`merchant_id`,`mode`,`account_number`,`date`,`amount_kobo`,`reference`,`narration`);--> statement-breakpoint
CREATE INDEX `bank_statement_lines_day` ON `bank_statement_lines` (`merchant_id`,`mode`,`date`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`payment_id` integer,
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
INSERT INTO `__new_outbox`("id", "event_id", "payment_id", "merchant_id", "mode", "event", "sequence", "payload_json", "created_at", "fanned_out_at") SELECT "id", "event_id", "payment_id", "merchant_id", "mode", "event", "sequence", "payload_json", "created_at", "fanned_out_at" FROM `outbox`;--> statement-breakpoint
DROP TABLE `outbox`;--> statement-breakpoint
ALTER TABLE `__new_outbox` RENAME TO `outbox`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_event_id_unique` ON `outbox` (`event_id`);--> statement-breakpoint
CREATE INDEX `outbox_pending` ON `outbox` (`id`) WHERE fanned_out_at is null;--> statement-breakpoint
CREATE INDEX `outbox_payment` ON `outbox` (`payment_id`);