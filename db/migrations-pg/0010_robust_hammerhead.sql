CREATE TABLE "reconciliation_exceptions" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"kind" text NOT NULL,
	"settlement_id" text,
	"payment_reference" text,
	"subject" text NOT NULL,
	"expected_kobo" bigint,
	"actual_kobo" bigint,
	"opened_at" bigint NOT NULL,
	"resolved_at" bigint,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "reconciliation_exceptions" ADD CONSTRAINT "reconciliation_exceptions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_exceptions" ADD CONSTRAINT "reconciliation_exceptions_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_exceptions_finding" ON "reconciliation_exceptions" USING btree ("merchant_id","mode","kind","subject");--> statement-breakpoint
CREATE INDEX "reconciliation_exceptions_open" ON "reconciliation_exceptions" USING btree ("merchant_id","mode","resolved_at");