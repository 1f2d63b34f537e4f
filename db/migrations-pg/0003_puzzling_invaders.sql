CREATE TABLE "rate_budgets" (
	"key" text PRIMARY KEY NOT NULL,
	"full_at" bigint NOT NULL,
	"granted" boolean NOT NULL
);
