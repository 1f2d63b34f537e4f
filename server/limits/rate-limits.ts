// API.md "Limits": per merchant and mode on token requests, per client IP on the public and sign-in doors.
import { ApiError } from "../api-error";
import { settings } from "../settings";
import { TokenBuckets, type Take } from "./token-bucket";

type Limiters = { merchant: TokenBuckets | null; ip: TokenBuckets | null };
const holder = globalThis as unknown as { __owoLimiters?: Limiters };

function limiters(): Limiters {
  if (!holder.__owoLimiters) {
    const s = settings();
    holder.__owoLimiters = {
      merchant: s.rateLimitRps > 0 && s.rateLimitBurst > 0 ? new TokenBuckets(s.rateLimitRps, s.rateLimitBurst) : null,
      ip: s.ipRateLimitPerMin > 0 ? new TokenBuckets(s.ipRateLimitPerMin / 60, s.ipRateLimitPerMin) : null,
    };
  }
  return holder.__owoLimiters;
}

export function rateLimitHeaders(t: Take): Record<string, string> {
  return { "X-RateLimit-Limit": String(t.limit), "X-RateLimit-Remaining": String(t.remaining), "X-RateLimit-Reset": String(t.resetSeconds) };
}

function enforce(buckets: TokenBuckets | null, key: string): Record<string, string> {
  if (!buckets) return {};
  const t = buckets.take(key);
  const headers = rateLimitHeaders(t);
  if (!t.allowed) {
    throw new ApiError("S429", `Too many requests: retry after ${t.retryAfterSeconds} s`, [], { ...headers, "Retry-After": String(t.retryAfterSeconds) });
  }
  return headers;
}

/** Returns the X-RateLimit-* headers to send, or throws 429 S429. */
export function limitMerchant(merchantId: string, mode: string): Record<string, string> {
  return enforce(limiters().merchant, `${merchantId}:${mode}`);
}

export function limitIp(ip: string): Record<string, string> {
  return enforce(limiters().ip, ip);
}
