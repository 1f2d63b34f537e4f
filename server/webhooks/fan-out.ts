// Fan-out: each new outbox event becomes one delivery per destination (the payment's callbackUrl, every live endpoint).
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { db, write } from "../../db/client";
import { deliveries, outbox, payments, webhookEndpoints } from "../../db/schema";
import { clock } from "../clock";
import { addressOf } from "./deliveries";

const BATCH = 100;
/** Deliveries a statement inserts: ten values a row. */
const INSERT_ROWS = 1_000;

type NewDelivery = typeof deliveries.$inferInsert;

/**
 * Fans out up to BATCH events in one transaction; returns how many deliveries it created. A batch costs four
 * statements however many events it holds: the events with their payments' callback addresses, the live endpoints of
 * their merchants, every delivery in one insert, and the events marked. One statement an event instead cost a PostgreSQL
 * round trip each, which under a burst of credits made a batch take half a second and held every callback behind it
 * (bench/README.md "Callbacks under load").
 */
export async function fanOutPending(now = clock.now()): Promise<number> {
  // Read first, outside any write lock: most polls find nothing, and they should not queue behind writers.
  const waiting = await db().select({ id: outbox.id }).from(outbox).where(isNull(outbox.fannedOutAt)).orderBy(asc(outbox.id)).limit(BATCH);
  if (waiting.length === 0) return 0;
  const candidates = waiting.map((w) => w.id);
  return write(async (tx) => {
    // Re-read under the lock: another worker may have fanned some of these out since.
    const events = await tx
      .select({ id: outbox.id, merchantId: outbox.merchantId, mode: outbox.mode, callbackUrl: payments.callbackUrl })
      .from(outbox)
      .leftJoin(payments, eq(payments.id, outbox.paymentId))
      .where(and(inArray(outbox.id, candidates), isNull(outbox.fannedOutAt)))
      .orderBy(asc(outbox.id));
    if (events.length === 0) return 0;
    const live = await tx
      .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, merchantId: webhookEndpoints.merchantId, mode: webhookEndpoints.mode })
      .from(webhookEndpoints)
      .where(
        and(
          inArray(webhookEndpoints.merchantId, [...new Set(events.map((e) => e.merchantId))]),
          eq(webhookEndpoints.enabled, true),
          isNull(webhookEndpoints.deletedAt),
        ),
      );
    const rows: NewDelivery[] = [];
    for (const event of events) {
      const common = { outboxId: event.id, merchantId: event.merchantId, status: "pending" as const, nextAttemptAt: now, createdAt: now };
      // Payments made through a link without a callback address have nowhere of their own to go; settlement and
      // reconciliation events are about no one payment (no callback address at all): they go to the endpoints only.
      if (event.callbackUrl && event.callbackUrl.trim() !== "")
        rows.push({ ...common, destination: "callback", endpointId: null, ...addressOf(event.callbackUrl) });
      for (const e of live)
        if (e.merchantId === event.merchantId && e.mode === event.mode)
          rows.push({ ...common, destination: "endpoint", endpointId: e.id, ...addressOf(e.url) });
    }
    // At most BATCH × (1 + MAX_ENDPOINTS) rows; inserted a slice at a time all the same, within SQLite's 32,766 values.
    for (let i = 0; i < rows.length; i += INSERT_ROWS) await tx.insert(deliveries).values(rows.slice(i, i + INSERT_ROWS));
    const fanned = events.map((e) => e.id);
    await tx.update(outbox).set({ fannedOutAt: now }).where(inArray(outbox.id, fanned));
    return rows.length;
  });
}
