-- Hand-written (drizzle-kit has no unlogged tables; keep this file when regenerating). Rate budgets
-- (server/limits/shared-budgets.ts) are rewritten on every limited request and are worth nothing after a crash (no
-- row is a full budget): unlogged, such a write skips the WAL and its commit does not wait for the disk.
ALTER TABLE "rate_budgets" SET UNLOGGED;
