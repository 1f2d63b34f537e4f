ALTER TABLE `provider_accounts` ADD `fee_percent_bp` integer;--> statement-breakpoint
ALTER TABLE `provider_accounts` ADD `fee_flat_kobo` integer;--> statement-breakpoint
ALTER TABLE `provider_accounts` ADD `fee_flat_waived_under_kobo` integer;--> statement-breakpoint
ALTER TABLE `provider_accounts` ADD `fee_cap_kobo` integer;