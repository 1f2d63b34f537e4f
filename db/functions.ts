// SQL functions the two databases spell differently, spelled for the database this process runs on, so that a
// service's query reads the same on both (db/schema.ts chooses the tables the same way).
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { databaseTargetOf } from "./location";

const onPostgres = databaseTargetOf(process.env.DATABASE_URL).dialect === "postgres";

/** 1-based position of `needle` in `haystack`, 0 when absent: SQLite's instr, PostgreSQL's strpos. */
export function positionOf(haystack: SQLWrapper | SQL, needle: SQLWrapper | SQL | string): SQL<number> {
  return onPostgres ? sql<number>`strpos(${haystack}, ${needle})` : sql<number>`instr(${haystack}, ${needle})`;
}

/**
 * The column, kept from SQLite's index choice (SQLite's unary plus, for a condition the planner would otherwise use an
 * index for badly); PostgreSQL's planner needs no such hint, and `+text` is no expression there.
 */
export function unindexed(column: SQLWrapper): SQL {
  return onPostgres ? sql`${column}` : sql`+${column}`;
}
