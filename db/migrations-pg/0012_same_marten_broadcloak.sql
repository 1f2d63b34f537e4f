ALTER TABLE "provider_notices" ADD COLUMN "count" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_notices" ADD COLUMN "last_received_at" bigint;--> statement-breakpoint
ALTER TABLE "provider_notices" ADD COLUMN "aggregate_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_notices_aggregate" ON "provider_notices" USING btree ("provider_account_id","aggregate_key");