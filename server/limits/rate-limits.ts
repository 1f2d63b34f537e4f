// API.md "Limits": per merchant and mode on token requests, per client IP on the public and sign-in doors.
// Where the budgets live follows the database (DESIGN.md "Storage and scale"): on PostgreSQL, where several instances
// serve one deployment, in the database (shared-budgets.ts: one upsert per request); on SQLite, one process per file,
// in that process's memory (token-bucket.ts), since a write per request through SQLite's single writer would queue
// every request behind the payments' own writes.
import { dialect } from "../../db/client";
import { ApiError } from "../api-error";
import { settings } from "../settings";
import { forgetFullBudgets, SharedBudgets } from "./shared-budgets";
import { TokenBuckets, type Take } from "./token-bucket";

type Budgets = { take(key: string): Take | Promise<Take> };
type Limiters = { merchant: Budgets | null; ip: Budgets | null; notices: Budgets | null };
const holder = globalThis as unknown as { __owoLimiters?: Limiters };

function budgets(rate: number, burst: number): Budgets {
  return dialect() === "postgres" ? new SharedBudgets(rate, burst) : new TokenBuckets(rate, burst);
}

function limiters(): Limiters {
  if (!holder.__owoLimiters) {
    const s = settings();
    holder.__owoLimiters = {
      merchant: s.rateLimitRps > 0 && s.rateLimitBurst > 0 ? budgets(s.rateLimitRps, s.rateLimitBurst) : null,
      ip: s.ipRateLimitPerMin > 0 ? budgets(s.ipRateLimitPerMin / 60, s.ipRateLimitPerMin) : null,
      notices: s.noticeRateLimitRps > 0 ? budgets(s.noticeRateLimitRps, NOTICE_BURST) : null,
    };
  }
  return holder.__owoLimiters;
}

export function rateLimitHeaders(t: Take): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(t.limit),
    "X-RateLimit-Remaining": String(t.remaining),
    "X-RateLimit-Reset": String(t.resetSeconds),
  };
}

async function enforce(budgets: Budgets | null, key: string): Promise<Record<string, string>> {
  if (!budgets) return {};
  const t = await budgets.take(key);
  const headers = rateLimitHeaders(t);
  if (!t.allowed) {
    throw new ApiError("S429", `Too many requests: retry after ${t.retryAfterSeconds} s`, [], {
      ...headers,
      "Retry-After": String(t.retryAfterSeconds),
    });
  }
  return headers;
}

/** Returns the X-RateLimit-* headers to send, or throws 429 S429. */
export function limitMerchant(merchantId: string, mode: string): Promise<Record<string, string>> {
  return enforce(limiters().merchant, `merchant:${merchantId}:${mode}`);
}

export function limitIp(ip: string): Promise<Record<string, string>> {
  return enforce(limiters().ip, `ip:${ip}`);
}

/**
 * A provider account's notice URL is public, and a notice may make Owo ask the provider: the door takes at most
 * NOTICE_BURST at once and OWO_NOTICE_RATE_LIMIT_RPS after, per provider account and per client IP (a provider sends from a
 * few addresses; what it is refused, it sends again, and the requery loop finds what was missed meanwhile).
 */
export const NOTICE_BURST = 100;

export async function limitNotices(providerId: string, ip: string | null): Promise<Record<string, string>> {
  if (ip !== null) await enforce(limiters().notices, `notices-ip:${ip}`);
  return enforce(limiters().notices, `notices:${providerId}`);
}

/** The sweeper's pass over the shared budgets (nothing to do where they live in memory). */
export async function forgetFullRateBudgets(): Promise<number> {
  return dialect() === "postgres" ? forgetFullBudgets() : 0;
}
