DROP INDEX `sandbox_bank_credits_open`;--> statement-breakpoint
CREATE INDEX `sandbox_bank_credits_unsettled` ON `sandbox_bank_credits` (`settlement_id`,`sent_at`);--> statement-breakpoint
CREATE INDEX `sandbox_bank_credits_open` ON `sandbox_bank_credits` (`merchant_id`,`settlement_id`,`sent_at`);