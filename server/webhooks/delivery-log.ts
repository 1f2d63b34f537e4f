// What the dashboard shows of callbacks: each delivery of a payment's events, or of an endpoint, with every attempt.
import { and, asc, desc, eq, inArray, type SQL } from "drizzle-orm";
import { db } from "../../db/client";
import { deliveries, deliveryAttempts, outbox, payments } from "../../db/schema";
import { ApiError } from "../api-error";
import { findEndpoint } from "./endpoints";
import type { Scope } from "../merchants/scope";

export type AttemptView = {
  attemptedAt: number;
  statusCode: number | null;
  latencyMs: number;
  responseSnippet: string | null;
  error: string | null;
};

export type DeliveryView = {
  id: number;
  eventId: string;
  event: string;
  sequence: number;
  /** Null for an event about no one payment (a settlement, a reconciliation exception). */
  paymentReference: string | null;
  destination: "callback" | "endpoint" | "forward";
  endpointId: string | null;
  url: string;
  status: "pending" | "delivered" | "failed" | "cancelled";
  attemptCount: number;
  /** When the next attempt is due; null once the delivery has ended. */
  nextAttemptAt: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: number;
  finishedAt: number | null;
  attempts: AttemptView[];
};

// An endpoint's history can be long; the dashboard shows the most recent.
const ENDPOINT_PAGE = 100;

async function deliveriesWhere(where: SQL | undefined, newestFirst: boolean, limit?: number): Promise<DeliveryView[]> {
  const query = db()
    .select({
      id: deliveries.id,
      eventId: outbox.eventId,
      event: outbox.event,
      sequence: outbox.sequence,
      paymentReference: payments.paymentReference,
      destination: deliveries.destination,
      endpointId: deliveries.endpointId,
      url: deliveries.url,
      status: deliveries.status,
      attemptCount: deliveries.attemptCount,
      nextAttemptAt: deliveries.nextAttemptAt,
      lastStatusCode: deliveries.lastStatusCode,
      lastError: deliveries.lastError,
      createdAt: deliveries.createdAt,
      finishedAt: deliveries.finishedAt,
    })
    .from(deliveries)
    .innerJoin(outbox, eq(outbox.id, deliveries.outboxId))
    .leftJoin(payments, eq(payments.id, outbox.paymentId))
    .where(where)
    .orderBy(newestFirst ? desc(deliveries.id) : asc(deliveries.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  if (rows.length === 0) return [];
  const attempts = await db()
    .select()
    .from(deliveryAttempts)
    .where(
      inArray(
        deliveryAttempts.deliveryId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(deliveryAttempts.id));
  const byDelivery = new Map<number, AttemptView[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.deliveryId) ?? [];
    list.push({
      attemptedAt: a.attemptedAt,
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      responseSnippet: a.responseSnippet,
      error: a.error,
    });
    byDelivery.set(a.deliveryId, list);
  }
  return rows.map((r) => ({ ...r, nextAttemptAt: r.status === "pending" ? r.nextAttemptAt : null, attempts: byDelivery.get(r.id) ?? [] }));
}

/** Every delivery of every event of the payment, in the order they were created. */
export async function deliveriesOfPayment({ merchantId, mode }: Scope, paymentReference: string): Promise<DeliveryView[]> {
  const [payment] = await db()
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.merchantId, merchantId), eq(payments.mode, mode), eq(payments.paymentReference, paymentReference)));
  if (!payment) throw new ApiError("S404", `No payment ${paymentReference} for this merchant`);
  return deliveriesWhere(eq(outbox.paymentId, payment.id), false);
}

/** The endpoint's most recent deliveries, newest first. */
export async function deliveriesOfEndpoint({ merchantId, mode }: Scope, endpointId: string): Promise<DeliveryView[]> {
  await findEndpoint({ merchantId, mode }, endpointId);
  return deliveriesWhere(eq(deliveries.endpointId, endpointId), true, ENDPOINT_PAGE);
}
