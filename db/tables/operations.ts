// What the deployment itself keeps: leases on background loops and shared rate-limit budgets.
// Times are integer milliseconds since the epoch (UTC); money is integer kobo.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One holder at a time per named loop (the requery loop) across every process on this database. */
export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  until: integer("until").notNull(),
});

/**
 * Rate-limit budgets shared by every instance on PostgreSQL (server/limits/shared-budgets.ts). A deployment on one
 * file is one process and keeps its budgets in memory (server/limits/token-bucket.ts), so there the table stays empty. One row per limited key (a merchant and
 * mode, a client IP), as GCRA keeps a token bucket: `fullAt` is when the bucket is full again, in microseconds since
 * the epoch by the database's clock, so a row whose `fullAt` has passed holds nothing and may be deleted. No index on
 * `fullAt`: every request rewrites it, and an index would cost more on each of those writes than the sweeper's scan
 * of a table that holds only the keys seen within one refill time. On PostgreSQL the table is unlogged
 * (db/migrations-pg/0004_rate_budgets_unlogged.sql): a crash empties it, which leaves every budget full.
 */
export const rateBudgets = sqliteTable("rate_budgets", {
  key: text("key").primaryKey(),
  fullAt: integer("full_at").notNull(),
  /** Whether the request that last wrote the row was granted: its answer, read back by the same statement. */
  granted: integer("granted", { mode: "boolean" }).notNull(),
});
