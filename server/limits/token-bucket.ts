// Token buckets in memory, one per key: `rate` tokens a second refill up to `burst`. One process's budgets: what a
// deployment on SQLite uses (one process per file); on PostgreSQL every instance draws on server/limits/shared-budgets.ts.
import { clock } from "../clock";

export type Take = { allowed: boolean; limit: number; remaining: number; resetSeconds: number; retryAfterSeconds: number };

/** The answer, and API.md's headers, from the tokens a bucket holds after the request was decided. */
export function takeOf(tokens: number, allowed: boolean, rate: number, burst: number): Take {
  return {
    allowed,
    limit: burst,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil((burst - tokens) / rate),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rate)),
  };
}

type Bucket = { tokens: number; at: number };

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {}

  take(key: string, now = clock.now()): Take {
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    this.buckets.set(key, b);
    if (this.buckets.size > 100_000) this.forgetFull(now);
    return takeOf(b.tokens, allowed, this.rate, this.burst);
  }

  /** Full buckets carry no state worth keeping; dropping them bounds memory under many keys. */
  private forgetFull(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.rate >= this.burst) this.buckets.delete(key);
    }
  }
}
