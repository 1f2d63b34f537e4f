// Rate-limit budgets held by PostgreSQL, so that several instances behind a balancer grant a budget once, not once
// each (issue 15). A token bucket kept as GCRA keeps it: one time per key, `fullAt`, when the bucket is full again;
// it holds `burst - (fullAt - now) / interval` tokens, and a request fits while one token is left. Each request is ONE
// statement, an upsert that refills, decides and takes in the row it locks, and reads its answer back: no transaction
// to open, nothing to retry, and concurrent requests for a key queue on its row for the length of one update.
// The database's clock, not each instance's, so instances whose clocks differ still agree on what has refilled.
import { lte, sql } from "drizzle-orm";
import { db } from "../../db/client";
import { rateBudgets } from "../../db/schema";
import { takeOf, type Take } from "./token-bucket";

/** Now in microseconds, fixed for the statement: the unit `fullAt` is kept in. */
const NOW = sql`(extract(epoch from statement_timestamp()) * 1000000)::bigint`;

export class SharedBudgets {
  /** Microseconds between two tokens, whole (the column is an integer; the rounding is below a microsecond a token). */
  private readonly interval: number;
  /** How far ahead of now `fullAt` may be for one more token to be left: burst − 1 intervals. */
  private readonly tolerance: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.interval = Math.max(1, Math.round(1_000_000 / rate));
    this.tolerance = (burst - 1) * this.interval;
  }

  async take(key: string): Promise<Take> {
    const level = sql`greatest(${rateBudgets.fullAt}, ${NOW})`;
    const fits = sql`${level} - ${NOW} <= ${this.tolerance}`;
    // One statement outside any transaction is its own: db() here runs on the pool, never inside a caller's write().
    const [row] = await db()
      .insert(rateBudgets)
      .values({ key, fullAt: sql`${NOW} + ${this.interval}`, granted: true })
      .onConflictDoUpdate({
        target: rateBudgets.key,
        set: { granted: fits, fullAt: sql`case when ${fits} then ${level} + ${this.interval} else ${rateBudgets.fullAt} end` },
      })
      .returning({ fullAt: rateBudgets.fullAt, granted: rateBudgets.granted, now: sql<string>`${NOW}` });
    if (!row) throw new Error(`rate budget ${key}: the upsert returned no row`);
    // node-postgres hands a bigint expression back as a string; the column comes through Drizzle's number mode.
    const ahead = Math.max(0, Number(row.fullAt) - Number(row.now));
    return takeOf(this.burst - ahead / this.interval, row.granted, this.rate, this.burst);
  }
}

/**
 * The sweeper's pass: a row whose `fullAt` has passed is a full bucket, the same as no row, so it goes. The table
 * then holds only the keys seen within one refill time (burst ÷ rate), however many keys have ever been limited.
 */
export async function forgetFullBudgets(): Promise<number> {
  const gone = await db().delete(rateBudgets).where(lte(rateBudgets.fullAt, NOW)).returning({ key: rateBudgets.key });
  return gone.length;
}
