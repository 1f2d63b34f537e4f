// Rate-limit budgets held by PostgreSQL, so that several instances behind a balancer grant a budget once, not once
// each (issue 15). A token bucket kept as GCRA keeps it: one time per key, `fullAt`, when the bucket is full again;
// it holds `burst - (fullAt - now) / interval` tokens. Taking is ONE statement, an upsert that refills, decides and
// takes in the row it locks and reads its answer back: no transaction to open, nothing to retry, and concurrent
// requests for a key queue on its row for the length of one update. The database's clock, not each instance's, so
// instances whose clocks differ still agree on what has refilled (moved by as much as a test moved server/clock.ts, so
// a test moves the refill instead of sleeping through it; production never moves).
// Cheaper still, never looser: an instance remembers a refusal until the next token is due, and a key with plenty left
// takes a few tokens at once and hands them out itself (see `SharedBudgets`).
import { lte, sql, type SQLWrapper } from "drizzle-orm";
import { db, prepared } from "../../db/client";
import { rateBudgets } from "../../db/schema";
import { clock } from "../clock";
import { takeOf, type Take } from "./token-bucket";

/**
 * Now in microseconds, fixed for the statement: the unit `fullAt` is kept in. A statement that waited for the row's lock
 * reckons from when it began, so the refill it waited through is not counted: the safe side, by less than a token at
 * any rate below a thousand a second.
 */
const nowMovedBy = (movedUs: SQLWrapper | number) => sql`((extract(epoch from statement_timestamp()) * 1000000)::bigint + ${movedUs})`;
const NOW = nowMovedBy(sql.placeholder("moved"));

/** What a test moved the clock by, in NOW's microseconds. */
const moved = () => Math.round(clock.movedMs() * 1000);

/** What the tokens taken cost in microseconds of refill: their number times the interval between two tokens. */
const cost = sql.placeholder("cost");
/** How far ahead of now `fullAt` may be for the tokens to be there: burst − taken intervals. */
const tolerance = sql.placeholder("tolerance");
const level = () => sql`greatest(${rateBudgets.fullAt}, ${NOW})`;
const fits = () => sql`${level()} - ${NOW} <= ${tolerance}`;

/**
 * Compiled once per connection: building the statement (Drizzle) and planning it (PostgreSQL) each time cost more than
 * running it. One statement outside any transaction is its own: it runs on the pool, never inside a caller's write().
 */
const takeTokens = prepared((d) =>
  d
    .insert(rateBudgets)
    .values({ key: sql.placeholder("key"), fullAt: sql`${NOW} + ${cost}`, granted: true })
    .onConflictDoUpdate({
      target: rateBudgets.key,
      set: { granted: fits(), fullAt: sql`case when ${fits()} then ${level()} + ${cost} else ${rateBudgets.fullAt} end` },
    })
    .returning({ fullAt: rateBudgets.fullAt, granted: rateBudgets.granted, now: sql<string>`${NOW}` }),
);

/** How long tokens taken ahead stay this instance's to hand out; unspent by then, they are dropped, never returned. */
const SPARE_MS = 1000;

/** What this instance knows of a key, on its own clock (milliseconds). */
type Known = {
  /** The bucket's `fullAt` as the database last answered it. */
  fullAt: number;
  /** Tokens taken ahead and not yet handed out, until `spareUntil`. */
  spare: number;
  spareUntil: number;
  /** Refused until then: no instance can be granted a token sooner (grants only take tokens; time alone gives them). */
  refusedUntil: number;
  /** Tokens the bucket held after the database's last answer. */
  left: number;
};

export class SharedBudgets {
  private readonly interval: number;
  /**
   * Tokens taken at once while the bucket holds plenty (at least four times as many): a busy key then costs a write
   * every few requests. One batch at a time per key, so an instance holds at most `batch − 1` tokens nobody else can
   * have, for up to SPARE_MS; small budgets, whose every token counts, take one at a time and are exact.
   */
  private readonly batch: number;
  private readonly known = new Map<string, Known>();
  /** A batch on its way, per key: this instance's other requests for the key wait for it instead of asking too. */
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.interval = Math.max(1, Math.round(1_000_000 / rate));
    this.batch = burst >= 40 ? Math.min(10, Math.floor(burst / 20)) : 1;
  }

  async take(key: string, now = clock.now()): Promise<Take> {
    for (;;) {
      const k = this.known.get(key);
      if (k && spareAt(k, now) >= 1) {
        k.spare -= 1;
        return this.answer(k, now, true);
      }
      if (k && now < k.refusedUntil) return this.answer(k, now, false);
      const coming = this.pending.get(key);
      if (coming) {
        await coming.catch(() => undefined); // its caller reports its failure; this one asks for itself
        continue;
      }
      if (!k || k.left < 4 * this.batch) break;
      const asked = this.ask(key, this.batch, now);
      this.pending.set(key, asked);
      try {
        const taken = await asked;
        // Fewer than a batch there: one may still be (asked for below, as when the bucket runs low).
        if (taken.granted || taken.left < 1) return this.answer(taken.known, now, taken.granted);
      } finally {
        this.pending.delete(key);
      }
    }
    // Near empty (or unknown), tokens go one at a time, each its own statement, so the last ones are exact.
    const taken = await this.ask(key, 1, now);
    return this.answer(taken.known, now, taken.granted);
  }

  private async ask(key: string, count: number, now: number): Promise<{ known: Known; granted: boolean; left: number }> {
    const [row] = await takeTokens(db(), {
      key,
      cost: count * this.interval,
      tolerance: (this.burst - count) * this.interval,
      moved: moved(),
    });
    if (!row) throw new Error(`rate budget ${key}: the upsert returned no row`);
    // node-postgres hands a bigint expression back as a string; the column comes through Drizzle's number mode.
    const ahead = Math.max(0, Number(row.fullAt) - Number(row.now));
    const left = this.burst - ahead / this.interval;
    // Spare another request of this instance took meanwhile stays spare: dropped, it would be tokens nobody spends.
    const before = this.known.get(key);
    const known: Known = {
      fullAt: now + ahead / 1000,
      spare: (before ? spareAt(before, now) : 0) + (row.granted ? count - 1 : 0),
      spareUntil: now + SPARE_MS,
      refusedUntil: row.granted ? 0 : now + ((1 - left) * this.interval) / 1000,
      left,
    };
    if (this.known.size >= 10_000) this.forgetPast(now);
    this.known.set(key, known);
    return { known, granted: row.granted, left };
  }

  /** The headers as if the spare tokens were back in the bucket, which is what the caller may still spend. */
  private answer(k: Known, now: number, granted: boolean): Take {
    const inBucket = this.burst - (Math.max(0, k.fullAt - now) * 1000) / this.interval;
    return takeOf(Math.min(this.burst, inBucket + spareAt(k, now)), granted, this.rate, this.burst);
  }

  private forgetPast(now: number): void {
    for (const [key, k] of this.known) if (k.refusedUntil <= now && k.spareUntil <= now) this.known.delete(key);
  }
}

function spareAt(k: Known, now: number): number {
  return now < k.spareUntil ? k.spare : 0;
}

/**
 * The sweeper's pass: a row whose `fullAt` has passed is a full bucket, the same as no row, so it goes. The table
 * then holds only the keys seen within one refill time (burst ÷ rate), however many keys have ever been limited.
 */
export async function forgetFullBudgets(): Promise<number> {
  const gone = await db()
    .delete(rateBudgets)
    .where(lte(rateBudgets.fullAt, nowMovedBy(moved())))
    .returning({ key: rateBudgets.key });
  return gone.length;
}
