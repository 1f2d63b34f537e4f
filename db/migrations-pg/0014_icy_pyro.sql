CREATE TABLE "bank_statement_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"account_number" text NOT NULL,
	"date" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"reference" text NOT NULL,
	"narration" text NOT NULL,
	"settlement_id" text,
	"imported_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "payment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_statement_lines" ADD CONSTRAINT "bank_statement_lines_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_statement_lines" ADD CONSTRAINT "bank_statement_lines_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_statement_lines_same" ON "bank_statement_lines" USING btree ("merchant_id","mode","account_number","date","amount_kobo","reference","narration");--> statement-breakpoint
CREATE INDEX "bank_statement_lines_day" ON "bank_statement_lines" USING btree ("merchant_id","mode","date");