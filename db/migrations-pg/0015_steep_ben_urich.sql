ALTER TABLE "deliveries" ADD COLUMN "provider_account_id" text;--> statement-breakpoint
ALTER TABLE "provider_accounts" ADD COLUMN "forward_url" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_provider_account_id_provider_accounts_id_fk" FOREIGN KEY ("provider_account_id") REFERENCES "public"."provider_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_provider_account" ON "deliveries" USING btree ("provider_account_id","id");