// Fan-out: each new outbox event becomes one delivery per destination (the payment's callbackUrl, every live endpoint).
import { and, asc, eq, isNull } from "drizzle-orm";
import { db, write } from "../../db/client";
import { deliveries, outbox, payments, webhookEndpoints } from "../../db/schema";
import { clock } from "../clock";
import { addressOf } from "./deliveries";

const BATCH = 100;

/** Fans out up to BATCH events in one transaction; returns how many deliveries it created. */
export async function fanOutPending(now = clock.now()): Promise<number> {
  // Read first, outside any write lock: most polls find nothing, and they should not queue behind writers.
  const waiting = await db().select({ id: outbox.id }).from(outbox).where(isNull(outbox.fannedOutAt)).orderBy(asc(outbox.id)).limit(BATCH);
  if (waiting.length === 0) return 0;
  return write(async (tx) => {
    let created = 0;
    for (const { id } of waiting) {
      // Re-read under the lock: another worker may have fanned this event out since.
      const [event] = await tx
        .select()
        .from(outbox)
        .where(and(eq(outbox.id, id), isNull(outbox.fannedOutAt)));
      if (!event) continue;
      // Settlement and reconciliation events are about no one payment: they go to the endpoints only.
      const [payment] =
        event.paymentId === null
          ? []
          : await tx.select({ callbackUrl: payments.callbackUrl }).from(payments).where(eq(payments.id, event.paymentId));
      const endpoints = await tx
        .select({ id: webhookEndpoints.id, url: webhookEndpoints.url })
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.merchantId, event.merchantId),
            eq(webhookEndpoints.mode, event.mode),
            eq(webhookEndpoints.enabled, true),
            isNull(webhookEndpoints.deletedAt),
          ),
        );
      const common = { outboxId: event.id, merchantId: event.merchantId, status: "pending" as const, nextAttemptAt: now, createdAt: now };
      const rows = [
        // Payments made through a link without a callback address have nowhere of their own to go.
        ...(payment && payment.callbackUrl.trim() !== ""
          ? [{ ...common, destination: "callback" as const, endpointId: null, ...addressOf(payment.callbackUrl) }]
          : []),
        ...endpoints.map((e) => ({ ...common, destination: "endpoint" as const, endpointId: e.id, ...addressOf(e.url) })),
      ];
      if (rows.length > 0) await tx.insert(deliveries).values(rows);
      await tx.update(outbox).set({ fannedOutAt: now }).where(eq(outbox.id, event.id));
      created += rows.length;
    }
    return created;
  });
}
