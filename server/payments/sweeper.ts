// The expiry sweeper: every OWO_SWEEP_INTERVAL_SECONDS, open payments past expiresAt become EXPIRED.
import { log } from "../logger";
import { dropStaleReservations } from "./issue";
import { expireOverdue } from "./lifecycle";

export function startSweeper(intervalSeconds: number): () => Promise<void> {
  if (intervalSeconds <= 0) return async () => undefined;
  const timer = setInterval(async () => {
    try {
      // Batches of 500: a backlog drains over a few ticks instead of holding the write lock for long.
      const expired = await expireOverdue();
      if (expired > 0) log.info({ expired }, "expired overdue payments");
      const dropped = await dropStaleReservations();
      if (dropped > 0) log.warn({ dropped }, "removed reservations whose process died while issuing");
    } catch (err) {
      log.error({ err }, "sweeper pass failed");
    }
  }, intervalSeconds * 1000);
  timer.unref();
  return async () => clearInterval(timer);
}
