CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` integer NOT NULL,
	`merchant_id` text NOT NULL,
	`mode` text NOT NULL,
	`refund_reference` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	`reason` text NOT NULL,
	`status` text NOT NULL,
	`provider` text NOT NULL,
	`provider_account_id` text,
	`provider_refund_id` text,
	`failure_reason` text,
	`checks` integer DEFAULT 0 NOT NULL,
	`next_check_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`settled_at` integer,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`provider_account_id`) REFERENCES `provider_accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_reference` ON `refunds` (`payment_id`,`refund_reference`);--> statement-breakpoint
CREATE INDEX `refunds_provider_refund` ON `refunds` (`provider`,`provider_refund_id`);--> statement-breakpoint
CREATE INDEX `refunds_due` ON `refunds` (`next_check_at`) WHERE status = 'PENDING';--> statement-breakpoint
ALTER TABLE `payments` ADD `amount_refunded_kobo` integer DEFAULT 0 NOT NULL;