// Forwarded notices (API.md "Live mode" → Modes): a provider takes one webhook URL per account and Owo holds it, so a
// valid notice for the merchant's other sales on that account is passed on unchanged — the body byte for byte and the
// provider's own headers — to the forwarding URL the merchant set on the account. It rides the callback outbox: one
// outbox row (never fanned out to endpoints) and one delivery, claimed, retried on the callback backoff and ended
// like any other, so there is no second retry loop; the same outbound-URL guard judges where it goes.
import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { db, write } from "../../db/client";
import { deliveries, outbox, providerAccounts } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import { addressOf } from "./deliveries";

// Headers that describe one hop, not the notice: the sender sets its own (Host, Content-Length, the connection), and
// the X-Forwarded-* family is what Owo's own reverse proxy added, not what the provider sent.
const HOP_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "forwarded",
  "x-real-ip",
]);

/** The provider's headers as they came, less those of the hop (names as Node gives them: lower case). */
export function providerHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name) || name.startsWith("x-forwarded-")) continue;
    kept[name] = value;
  }
  return kept;
}

/** What the outbox row holds: the body as base64, so not one byte changes on the way through the database. */
type ForwardPayload = {
  providerAccountId: string;
  eventId: string;
  reference: string | null;
  headers: Record<string, string | string[]>;
  body: string;
};

export type NoticeToForward = {
  merchantId: string;
  providerAccountId: string;
  url: string;
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
  /** The provider's event and the transaction it names, for the Providers page. */
  eventId: string;
  reference?: string;
};

/** Queues the notice for its forwarding URL: its outbox row and delivery in one transaction. */
export async function queueForward(n: NoticeToForward, now = clock.now()): Promise<void> {
  const payload: ForwardPayload = {
    providerAccountId: n.providerAccountId,
    eventId: n.eventId,
    reference: n.reference ?? null,
    headers: providerHeaders(n.headers),
    body: n.raw.toString("base64"),
  };
  await write(async (tx) => {
    const [row] = await tx
      .insert(outbox)
      .values({
        eventId: `fwd_${randomBytes(12).toString("hex")}`,
        paymentId: null,
        merchantId: n.merchantId,
        mode: "live",
        event: "provider.notice",
        sequence: 0,
        payloadJson: JSON.stringify(payload),
        createdAt: now,
        // Fanned out already: it goes to the forwarding URL alone, never to the merchant's webhook endpoints.
        fannedOutAt: now,
      })
      .returning({ id: outbox.id });
    if (!row) throw new Error("the forwarded notice's outbox row was not written");
    await tx.insert(deliveries).values({
      outboxId: row.id,
      merchantId: n.merchantId,
      destination: "forward",
      providerAccountId: n.providerAccountId,
      ...addressOf(n.url),
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
    });
  });
}

/** The request one attempt sends: the provider's headers and body exactly as they came. */
export function forwardedRequest(payloadJson: string): { headers: Record<string, string | string[]>; body: Buffer } {
  const payload = JSON.parse(payloadJson) as ForwardPayload;
  return { headers: payload.headers, body: Buffer.from(payload.body, "base64") };
}

export type ForwardView = {
  deliveryId: number;
  eventId: string;
  reference: string | null;
  url: string;
  status: "pending" | "delivered" | "failed" | "cancelled";
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /** When the next attempt is due; null once the forward has ended. */
  nextAttemptAt: number | null;
  createdAt: number;
  finishedAt: number | null;
};

const RECENT = 20;

/** The account's most recent forwards, newest first; another merchant's account is not found. */
export async function recentForwards(merchantId: string, providerAccountId: string): Promise<ForwardView[]> {
  const [own] = await db()
    .select({ id: providerAccounts.id })
    .from(providerAccounts)
    .where(and(eq(providerAccounts.id, providerAccountId), eq(providerAccounts.merchantId, merchantId)));
  if (!own) throw new ApiError("S404", "No such provider account");
  const rows = await db()
    .select({
      deliveryId: deliveries.id,
      payloadJson: outbox.payloadJson,
      url: deliveries.url,
      status: deliveries.status,
      attemptCount: deliveries.attemptCount,
      lastStatusCode: deliveries.lastStatusCode,
      lastError: deliveries.lastError,
      nextAttemptAt: deliveries.nextAttemptAt,
      createdAt: deliveries.createdAt,
      finishedAt: deliveries.finishedAt,
    })
    .from(deliveries)
    .innerJoin(outbox, eq(outbox.id, deliveries.outboxId))
    .where(
      and(
        eq(deliveries.merchantId, merchantId),
        eq(deliveries.providerAccountId, providerAccountId),
        eq(deliveries.destination, "forward"),
      ),
    )
    .orderBy(desc(deliveries.id))
    .limit(RECENT);
  return rows.map(({ payloadJson, ...r }) => {
    const payload = JSON.parse(payloadJson) as ForwardPayload;
    return {
      ...r,
      eventId: payload.eventId,
      reference: payload.reference,
      nextAttemptAt: r.status === "pending" ? r.nextAttemptAt : null,
    };
  });
}
