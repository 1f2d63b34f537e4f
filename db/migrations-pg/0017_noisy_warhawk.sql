CREATE TABLE "merchant_logos" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes_base64" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "support_phone" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "logo_id" text;--> statement-breakpoint
ALTER TABLE "merchant_logos" ADD CONSTRAINT "merchant_logos_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "merchant_logos_merchant" ON "merchant_logos" USING btree ("merchant_id");