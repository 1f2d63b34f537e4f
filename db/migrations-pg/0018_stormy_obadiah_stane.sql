DROP INDEX "refunds_due";--> statement-breakpoint
CREATE INDEX "refunds_due" ON "refunds" USING btree ("next_check_at") WHERE status in ('PENDING', 'NEEDS_ATTENTION');