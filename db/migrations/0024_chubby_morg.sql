CREATE TABLE `merchant_logos` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes_base64` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`merchant_id`) REFERENCES `merchants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `merchant_logos_merchant` ON `merchant_logos` (`merchant_id`);--> statement-breakpoint
ALTER TABLE `merchants` ADD `support_email` text;--> statement-breakpoint
ALTER TABLE `merchants` ADD `support_phone` text;--> statement-breakpoint
ALTER TABLE `merchants` ADD `logo_id` text;