// Rate-limit budgets held by PostgreSQL, so that several instances behind a balancer grant a budget once, not once
// each (issue 15). A token bucket kept as GCRA keeps it: one time per key, `fullAt`, when the bucket is full again;
// it holds `burst - (fullAt - now) / interval` tokens, and a request fits while one token is left. Each request is ONE
// statement, an upsert that refills, decides and takes in the row it locks, and reads its answer back: no transaction
// to open, nothing to retry, and concurrent requests for a key queue on its row for the length of one update.
// The database's clock, not each instance's, so instances whose clocks differ still agree on what has refilled.
import { lte, sql } from "drizzle-orm";
import { db, prepared } from "../../db/client";
import { rateBudgets } from "../../db/schema";
import { takeOf, type Take } from "./token-bucket";

/** Now in microseconds, fixed for the statement: the unit `fullAt` is kept in. */
const NOW = sql`(extract(epoch from statement_timestamp()) * 1000000)::bigint`;

/** Microseconds between two tokens, whole (the column is an integer; the rounding is below a microsecond a token). */
const interval = sql.placeholder("interval");
/** How far ahead of now `fullAt` may be for one more token to be left: burst − 1 intervals. */
const tolerance = sql.placeholder("tolerance");
const level = sql`greatest(${rateBudgets.fullAt}, ${NOW})`;
const fits = sql`${level} - ${NOW} <= ${tolerance}`;

/**
 * Compiled once per connection: building the statement (Drizzle) and planning it (PostgreSQL) each time cost more than
 * running it. One statement outside any transaction is its own: it runs on the pool, never inside a caller's write().
 */
const takeOne = prepared((d) =>
  d
    .insert(rateBudgets)
    .values({ key: sql.placeholder("key"), fullAt: sql`${NOW} + ${interval}`, granted: true })
    .onConflictDoUpdate({ target: rateBudgets.key, set: { granted: fits, fullAt: sql`case when ${fits} then ${level} + ${interval} else ${rateBudgets.fullAt} end` } })
    .returning({ fullAt: rateBudgets.fullAt, granted: rateBudgets.granted, now: sql<string>`${NOW}` }),
);

/** A refusal remembered by this instance: the bucket's `fullAt` on this process's clock (milliseconds). */
type Refused = { fullAt: number; until: number };

export class SharedBudgets {
  private readonly interval: number;
  private readonly tolerance: number;
  /**
   * Keys refused until their next token: no instance can be granted one before then (grants only take tokens, time
   * alone gives them), so this instance refuses again without asking the database, with the same headers it would get.
   * A client hammering past its limit then costs no write per request.
   */
  private readonly refused = new Map<string, Refused>();

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.interval = Math.max(1, Math.round(1_000_000 / rate));
    this.tolerance = (burst - 1) * this.interval;
  }

  async take(key: string, now = Date.now()): Promise<Take> {
    const known = this.refused.get(key);
    if (known && now < known.until) return this.takeAt(Math.max(0, known.fullAt - now) * 1000, false);
    if (known) this.refused.delete(key);
    const [row] = await takeOne({ key, interval: this.interval, tolerance: this.tolerance });
    if (!row) throw new Error(`rate budget ${key}: the upsert returned no row`);
    // node-postgres hands a bigint expression back as a string; the column comes through Drizzle's number mode.
    const ahead = Math.max(0, Number(row.fullAt) - Number(row.now));
    if (!row.granted) {
      if (this.refused.size >= 10_000) this.forgetPast(now);
      this.refused.set(key, { fullAt: now + ahead / 1000, until: now + (ahead - this.tolerance) / 1000 });
    }
    return this.takeAt(ahead, row.granted);
  }

  /** `ahead`: microseconds until the bucket is full. */
  private takeAt(ahead: number, granted: boolean): Take {
    return takeOf(this.burst - ahead / this.interval, granted, this.rate, this.burst);
  }

  private forgetPast(now: number): void {
    for (const [key, r] of this.refused) if (r.until <= now) this.refused.delete(key);
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
