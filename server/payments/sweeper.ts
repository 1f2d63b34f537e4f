// The expiry sweeper: every OWO_SWEEP_INTERVAL_SECONDS, open payments past expiresAt become EXPIRED (and full rate
// budgets are forgotten). One instance sweeps at a time (its lease,
// server/leases.ts): several sweeping the same rows would only collide.
import { clock } from "../clock";
import { forgetFullRateBudgets } from "../limits/rate-limits";
import { holdLease, newLeaseHolder, releaseLease } from "../leases";
import { log } from "../logger";
import { repeatEvery } from "../recurring";
import { dropStaleReservations } from "./issue";
import { expireOverdue } from "./lifecycle";

export function startSweeper(intervalSeconds: number): () => Promise<void> {
  if (intervalSeconds <= 0) return async () => undefined;
  const holder = newLeaseHolder();
  // Renewed every pass; when the holder dies, a survivor sweeps within three periods (never less than 10 s).
  const leaseSeconds = Math.max(10, 3 * intervalSeconds);
  const stop = repeatEvery(intervalSeconds * 1000, "sweeper", async () => {
    if (!(await holdLease("sweeper", holder, clock.now(), leaseSeconds))) return;
    // Batches of 500: a backlog drains over a few ticks instead of holding the write lock for long.
    const expired = await expireOverdue();
    if (expired > 0) log.info({ expired }, "expired overdue payments");
    const dropped = await dropStaleReservations();
    if (dropped > 0) log.warn({ dropped }, "removed reservations whose process died while issuing");
    // Rate budgets refilled to full hold nothing (PostgreSQL only): without this pass every key ever limited stays.
    await forgetFullRateBudgets();
  });
  return async () => {
    await stop();
    await releaseLease("sweeper", holder);
  };
}
