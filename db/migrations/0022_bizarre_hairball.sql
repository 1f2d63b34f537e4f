ALTER TABLE `deliveries` ADD `provider_account_id` text REFERENCES provider_accounts(id);--> statement-breakpoint
CREATE INDEX `deliveries_provider_account` ON `deliveries` (`provider_account_id`,`id`);--> statement-breakpoint
ALTER TABLE `provider_accounts` ADD `forward_url` text;