// The expiry sweeper: every OWO_SWEEP_INTERVAL_SECONDS, open payments past expiresAt become EXPIRED (and full rate
// budgets are forgotten). One instance sweeps at a time (server/leases.ts): several sweeping the same rows would only
// collide.
import { forgetFullRateBudgets } from "../limits/rate-limits";
import { loopTurn } from "../leases";
import { log } from "../logger";
import { repeatEvery } from "../recurring";
import { dropStaleReservations } from "./issue";
import { expireOverdue } from "./lifecycle";

export function startSweeper(intervalSeconds: number): () => Promise<void> {
  if (intervalSeconds <= 0) return async () => undefined;
  // A lease row (SQLite) is renewed every pass; when its holder dies, a survivor sweeps within three periods (never
  // less than 10 s). PostgreSQL's lock moves on a survivor's next pass.
  const turn = loopTurn("sweeper", () => Math.max(10, 3 * intervalSeconds));
  const stop = repeatEvery(intervalSeconds * 1000, "sweeper", async () => {
    if (!(await turn.held())) return;
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
    await turn.release();
  };
}
