ALTER TABLE "deliveries" ADD COLUMN "host" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "deliveries_due_by_host" ON "deliveries" USING btree ("host","next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
-- Deliveries made before the column: the url's authority, lower-cased (what a claim groups by; hostKey's URL parsing
-- differs only for userinfo and default ports, which group them no worse).
UPDATE "deliveries" SET "host" = lower(substr(substr("url", strpos("url", '://') + 3), 1, strpos(substr("url", strpos("url", '://') + 3) || '/', '/') - 1));
