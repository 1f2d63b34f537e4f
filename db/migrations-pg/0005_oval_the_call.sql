CREATE TABLE "sandbox_bank_credits" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"payment_reference" text NOT NULL,
	"reference" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"fee_kobo" bigint NOT NULL,
	"sent_at" bigint NOT NULL,
	"settlement_id" text
);
--> statement-breakpoint
CREATE TABLE "sandbox_bank_refunds" (
	"refund_id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"paid_at" bigint NOT NULL,
	"declined" boolean NOT NULL,
	"settlement_id" text
);
--> statement-breakpoint
CREATE TABLE "settlement_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"settlement_id" text NOT NULL,
	"position" bigint NOT NULL,
	"kind" text NOT NULL,
	"provider_transaction_id" text NOT NULL,
	"payment_reference" text,
	"provider_reference" text,
	"gross_kobo" bigint NOT NULL,
	"fee_kobo" bigint NOT NULL,
	"net_kobo" bigint NOT NULL,
	"matched" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"provider" text NOT NULL,
	"provider_id" text NOT NULL,
	"provider_settlement_id" text NOT NULL,
	"status" text NOT NULL,
	"destination" text NOT NULL,
	"currency" text NOT NULL,
	"gross_kobo" bigint NOT NULL,
	"fee_kobo" bigint NOT NULL,
	"refund_kobo" bigint NOT NULL,
	"adjustment_kobo" bigint NOT NULL,
	"net_kobo" bigint NOT NULL,
	"line_count" bigint NOT NULL,
	"settled_at" bigint,
	"bank_reference" text,
	"reconciliation_status" text DEFAULT 'unchecked' NOT NULL,
	"exception_count" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_bank_credits" ADD CONSTRAINT "sandbox_bank_credits_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_lines" ADD CONSTRAINT "settlement_lines_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_bank_credits_open" ON "sandbox_bank_credits" USING btree ("merchant_id","settlement_id");--> statement-breakpoint
CREATE INDEX "sandbox_bank_credits_reference" ON "sandbox_bank_credits" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "sandbox_bank_refunds_reference" ON "sandbox_bank_refunds" USING btree ("reference","settlement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_lines_position" ON "settlement_lines" USING btree ("settlement_id","position");--> statement-breakpoint
CREATE INDEX "settlement_lines_transaction" ON "settlement_lines" USING btree ("provider_transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_provider_settlement" ON "settlements" USING btree ("merchant_id","mode","provider_id","provider_settlement_id");--> statement-breakpoint
CREATE INDEX "settlements_list" ON "settlements" USING btree ("merchant_id","mode","created_at","id");