// Token buckets in memory, one per key: `rate` tokens a second refill up to `burst`.
export type Take = { allowed: boolean; limit: number; remaining: number; resetSeconds: number; retryAfterSeconds: number };

type Bucket = { tokens: number; at: number };

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {}

  take(key: string, now = Date.now()): Take {
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    this.buckets.set(key, b);
    if (this.buckets.size > 100_000) this.forgetFull(now);
    const missing = this.burst - b.tokens;
    return {
      allowed,
      limit: this.burst,
      remaining: Math.floor(b.tokens),
      resetSeconds: Math.ceil(missing / this.rate),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / this.rate)),
    };
  }

  /** Full buckets carry no state worth keeping; dropping them bounds memory under many keys. */
  private forgetFull(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.rate >= this.burst) this.buckets.delete(key);
    }
  }
}
