DROP INDEX `refunds_due`;--> statement-breakpoint
CREATE INDEX `refunds_due` ON `refunds` (`next_check_at`) WHERE status in ('PENDING', 'NEEDS_ATTENTION');