ALTER TABLE `deliveries` ADD `host` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `deliveries_due_by_host` ON `deliveries` (`host`,`next_attempt_at`) WHERE status = 'pending';--> statement-breakpoint
-- Deliveries made before the column: the url's authority, lower-cased (what a claim groups by; hostKey's URL parsing
-- differs only for userinfo and default ports, which group them no worse).
UPDATE `deliveries` SET `host` = lower(substr(substr(`url`, instr(`url`, '://') + 3), 1, instr(substr(`url`, instr(`url`, '://') + 3) || '/', '/') - 1));
