ALTER TABLE "provider_accounts" ADD COLUMN "fee_percent_bp" bigint;--> statement-breakpoint
ALTER TABLE "provider_accounts" ADD COLUMN "fee_flat_kobo" bigint;--> statement-breakpoint
ALTER TABLE "provider_accounts" ADD COLUMN "fee_flat_waived_under_kobo" bigint;--> statement-breakpoint
ALTER TABLE "provider_accounts" ADD COLUMN "fee_cap_kobo" bigint;