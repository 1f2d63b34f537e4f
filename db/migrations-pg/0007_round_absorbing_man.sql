CREATE TABLE "ledger_balances" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"account" text NOT NULL,
	"balance_kobo" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"sequence" bigint NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"payment_id" bigint,
	"payment_reference" text,
	"refund_reference" text,
	"settlement_id" text,
	"reverses_entry_id" text,
	"posted_at" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_heads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"sequence" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" text NOT NULL,
	"line" bigint NOT NULL,
	"account" text NOT NULL,
	"amount_kobo" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_heads" ADD CONSTRAINT "ledger_heads_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_balances_account" ON "ledger_balances" USING btree ("merchant_id","mode","account");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_sequence" ON "ledger_entries" USING btree ("merchant_id","mode","sequence");--> statement-breakpoint
CREATE INDEX "ledger_entries_payment" ON "ledger_entries" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_posted" ON "ledger_entries" USING btree ("merchant_id","mode","posted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_heads_books" ON "ledger_heads" USING btree ("merchant_id","mode");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_postings_line" ON "ledger_postings" USING btree ("entry_id","line");