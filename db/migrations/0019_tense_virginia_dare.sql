ALTER TABLE `provider_notices` ADD `count` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `provider_notices` ADD `last_received_at` integer;--> statement-breakpoint
ALTER TABLE `provider_notices` ADD `aggregate_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `provider_notices_aggregate` ON `provider_notices` (`provider_account_id`,`aggregate_key`);