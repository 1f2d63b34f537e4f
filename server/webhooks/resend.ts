// Sending a delivery again on the merchant's request: same eventId, same body, whatever state it is in.
import { and, eq } from "drizzle-orm";
import { write } from "../../db/client";
import { deliveries, outbox, webhookEndpoints } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import type { Scope } from "../merchants/scope";

/**
 * Queues a new attempt of a delivery now. One already in flight keeps its lease, so the new attempt never runs beside
 * it; its due time moves past the one the attempt was claimed at, which tells `recordAttempt` that one more is owed
 * after it, even when the attempt in flight is answered 2xx (the receiver may print before Owo records the answer).
 */
export async function resendDelivery({ merchantId, mode }: Scope, deliveryId: number, now = clock.now()): Promise<void> {
  await write(async (tx) => {
    const [found] = await tx
      .select({
        status: deliveries.status,
        endpointId: deliveries.endpointId,
        nextAttemptAt: deliveries.nextAttemptAt,
        leaseUntil: deliveries.leaseUntil,
      })
      .from(deliveries)
      .innerJoin(outbox, eq(outbox.id, deliveries.outboxId))
      .where(and(eq(deliveries.id, deliveryId), eq(deliveries.merchantId, merchantId), eq(outbox.mode, mode)));
    if (!found) throw new ApiError("S404", `No delivery ${deliveryId} for this merchant`);
    if (found.endpointId) {
      const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, found.endpointId));
      if (!endpoint || endpoint.deletedAt !== null || !endpoint.enabled) {
        throw new ApiError("S5", "Invalid/Missing parameters = deliveryId", [
          { field: "deliveryId", message: "goes to a disabled or deleted endpoint; enable the endpoint first" },
        ]);
      }
    }
    const inFlight = found.status === "pending" && found.leaseUntil !== null && found.leaseUntil > now;
    const reopen = found.status === "pending" ? {} : { status: "pending" as const, leaseUntil: null, finishedAt: null };
    await tx
      .update(deliveries)
      .set({ ...reopen, nextAttemptAt: inFlight ? Math.max(now, found.nextAttemptAt + 1) : now })
      .where(eq(deliveries.id, deliveryId));
  });
}
