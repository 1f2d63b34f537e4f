CREATE TABLE `rate_budgets` (
	`key` text PRIMARY KEY NOT NULL,
	`full_at` integer NOT NULL,
	`granted` integer NOT NULL
);
