// When a failed callback is tried again (API.md "Callbacks"): exponential backoff with jitter over at least 72 hours.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const JITTER = 0.2;
const MINIMUM_SPAN = 72 * HOUR;

// Wait after failed attempt n is RETRY_DELAYS[n - 1]. Seven 12 h waits make even the shortest
// jittered schedule (every wait at -20%) span 79.8 h, so a receiver is always given the full
// 72 h; the nominal span is 99.7 h and the longest 119.6 h.
const RETRY_DELAYS: readonly number[] = [
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  ...Array<number>(7).fill(12 * HOUR),
];

/** Attempts per delivery, the first included: 1 + 15 retries. After the last the delivery is failed. */
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;

/** The shortest possible total wait, all jitter at its low end; kept ≥ 72 h by the check below. */
export const MINIMUM_SCHEDULE_MS = RETRY_DELAYS.reduce((sum, d) => sum + d, 0) * (1 - JITTER);

if (MINIMUM_SCHEDULE_MS < MINIMUM_SPAN) throw new Error("retry schedule is shorter than 72 hours");

/**
 * Milliseconds to wait after 1-based attempt `attemptNumber` failed, or null when it was the last.
 * `scale` (OWO_WEBHOOK_BACKOFF_SCALE) shrinks the whole schedule for tests and demos.
 */
export function retryDelayMs(attemptNumber: number, scale: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attemptNumber must be a positive integer, got ${attemptNumber}`);
  }
  if (!Number.isFinite(scale) || scale < 0) throw new RangeError(`scale must be a finite number ≥ 0, got ${scale}`);
  const base = RETRY_DELAYS[attemptNumber - 1];
  if (base === undefined) return null;
  // Jitter spreads retries of many deliveries that failed together (a receiver outage) over time.
  const factor = 1 + JITTER * (2 * Math.min(Math.max(random(), 0), 1) - 1);
  return Math.round(base * factor * scale);
}
