// A delivery's life: claimed under a lease, one attempt recorded at a time, retried or ended (resent: resend.ts).
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { db, write, type Db, type Tx } from "../../db/client";
import { picksPerRow, skippingLocked } from "../../db/functions";
import { deliveries, deliveryAttempts, outbox, webhookEndpoints, type Mode } from "../../db/schema";
import { retryDelayMs } from "./backoff";
import type { AttemptResult } from "./sender";
import { clock } from "../clock";

export type ClaimedDelivery = {
  id: number;
  url: string;
  destination: "callback" | "endpoint" | "forward";
  endpointId: string | null;
  merchantId: string;
  mode: Mode;
  eventId: string;
  event: string;
  createdAt: number;
  payloadJson: string;
  /** The lease this worker holds; it is also the token that proves the delivery is still ours. */
  leaseUntil: number;
  /** When it was due as claimed: a resend asked while the attempt is in flight moves it (server/webhooks/resend.ts). */
  dueAt: number;
};

export type ClaimLimits = {
  /** How many more attempts this worker may start now. */
  free: number;
  /** How many more attempts this worker may start now to one host (as `hostKey` names it). */
  freeForHost: (host: string) => number;
};

/** The destination host a concurrency limit counts against: host and port, as the URL spells them. */
export function hostKey(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

/** A new delivery's address: its url and the host a claim groups it by, always written together. */
export function addressOf(url: string): { url: string; host: string } {
  return { url, host: hostKey(url) };
}

const CANDIDATES = 500;
const PER_HOST_CANDIDATES = 4;

function dueNow(now: number) {
  return and(
    eq(deliveries.status, "pending"),
    lte(deliveries.nextAttemptAt, now),
    or(isNull(deliveries.leaseUntil), lte(deliveries.leaseUntil, now)),
  );
}

/**
 * The oldest few due deliveries of each host with any pending, so a backlog for one slow host cannot crowd every other
 * host out of a claim. Read by index however long a backlog grows (deliveries_due_by_host; `status = 'pending'` is
 * spelled out so both databases match the partial index): the hosts one seek at a time, then each host's oldest due.
 * Ranking every due delivery instead cost a claim 23 ms of the writer's turn under a 25,000-delivery backlog.
 */
export function dueCandidates(q: Db, now: number) {
  const hosts = sql`with recursive hosts(host) as (
      select min(host) from ${deliveries} where status = 'pending'
      union all
      select (select min(later.host) from ${deliveries} as later where later.status = 'pending' and later.host > hosts.host)
        from hosts where hosts.host is not null)`;
  const oldestDue = sql`where due.status = 'pending' and due.host = hosts.host and due.next_attempt_at <= ${now}
      and (due.lease_until is null or due.lease_until <= ${now})
    order by due.next_attempt_at, due.id limit ${sql.raw(String(PER_HOST_CANDIDATES))}`;
  return q
    .select({ id: sql<number>`candidates.id`.mapWith(Number), url: sql<string>`candidates.url` })
    .from(sql`(${hosts} ${picksPerRow("hosts", deliveries, "due", oldestDue)}) as candidates`)
    .orderBy(sql`candidates.next_attempt_at`, sql`candidates.id`)
    .limit(CANDIDATES);
}

type Candidate = { id: number; host: string };

/**
 * Leases due deliveries to the caller within the limits: two workers never hold the same delivery, and one whose
 * worker died is due again once its lease has passed. The oldest candidates are chosen first without locks, then
 * locked by id, skipping any another claimer holds (db/functions.ts `skippingLocked`); each one lost that way is
 * replaced by the next candidate. So racing workers on PostgreSQL take disjoint rows without waiting for each other or
 * retrying, and lock only what they take. On SQLite the transaction runs alone and the first round takes all.
 */
export async function claimDue(limits: ClaimLimits, leaseMs: number, now = clock.now()): Promise<ClaimedDelivery[]> {
  if (limits.free <= 0) return [];
  if (!(await db().select({ id: deliveries.id }).from(deliveries).where(dueNow(now)).limit(1))[0]) return [];
  return write(
    async (tx) => {
      const candidates: Candidate[] = (await dueCandidates(tx, now)).map((c) => ({ id: c.id, host: hostKey(c.url) }));
      const perHost = new Map<string, number>();
      const picked: number[] = [];
      let next = 0;
      while (picked.length < limits.free && next < candidates.length) {
        const wanted: Candidate[] = [];
        for (; next < candidates.length && picked.length + wanted.length < limits.free; next++) {
          const c = candidates[next] as Candidate;
          const already = perHost.get(c.host) ?? 0;
          if (already >= limits.freeForHost(c.host)) continue;
          perHost.set(c.host, already + 1);
          wanted.push(c);
        }
        if (wanted.length === 0) break;
        const locked = new Set(
          (
            await skippingLocked(
              tx
                .select({ id: deliveries.id })
                .from(deliveries)
                .where(
                  and(
                    inArray(
                      deliveries.id,
                      wanted.map((c) => c.id),
                    ),
                    dueNow(now),
                  ),
                ),
            )
          ).map((r) => r.id),
        );
        for (const c of wanted) {
          if (locked.has(c.id)) picked.push(c.id);
          else perHost.set(c.host, (perHost.get(c.host) ?? 1) - 1);
        }
      }
      if (picked.length === 0) return [];
      const leaseUntil = now + leaseMs;
      await tx.update(deliveries).set({ leaseUntil }).where(inArray(deliveries.id, picked));
      return (
        await tx
          .select({
            id: deliveries.id,
            url: deliveries.url,
            destination: deliveries.destination,
            endpointId: deliveries.endpointId,
            merchantId: deliveries.merchantId,
            mode: outbox.mode,
            eventId: outbox.eventId,
            event: outbox.event,
            createdAt: outbox.createdAt,
            payloadJson: outbox.payloadJson,
            dueAt: deliveries.nextAttemptAt,
          })
          .from(deliveries)
          .innerJoin(outbox, eq(outbox.id, deliveries.outboxId))
          .where(inArray(deliveries.id, picked))
      ).map((row) => ({ ...row, leaseUntil }));
    },
    { isolation: "read committed" },
  );
}

export type HeldLease = { id: number; leaseUntil: number };

/** Extends the leases of attempts still in flight; returns each one's new lease, or null where it was lost. */
export async function renewLeases(held: readonly HeldLease[], leaseMs: number, now = clock.now()): Promise<Map<number, number | null>> {
  const renewed = new Map<number, number | null>();
  if (held.length === 0) return renewed;
  await write(
    async (tx) => {
      for (const h of held) {
        const { length: changes } = await tx
          .update(deliveries)
          .set({ leaseUntil: now + leaseMs })
          .where(and(eq(deliveries.id, h.id), eq(deliveries.leaseUntil, h.leaseUntil), eq(deliveries.status, "pending")))
          .returning({ id: deliveries.id });
        renewed.set(h.id, changes > 0 ? now + leaseMs : null);
      }
      // Each update is a compare-and-set on the lease, which read committed re-checks on the newest row.
    },
    { isolation: "read committed" },
  );
  return renewed;
}

/** Hands leased deliveries back at once (a stopping worker), so another worker need not wait out the lease. */
export async function releaseLeases(held: readonly HeldLease[]): Promise<void> {
  if (held.length === 0) return;
  await write(
    async (tx) => {
      for (const h of held) {
        await tx
          .update(deliveries)
          .set({ leaseUntil: null })
          .where(and(eq(deliveries.id, h.id), eq(deliveries.leaseUntil, h.leaseUntil)));
      }
    },
    { isolation: "read committed" },
  );
}

/** Ends the pending deliveries of an endpoint that will receive nothing more (disabled, deleted, or gone). */
export async function cancelEndpointDeliveries(tx: Tx, endpointId: string, reason: string, now: number): Promise<void> {
  await tx
    .update(deliveries)
    .set({ status: "cancelled", lastError: reason, leaseUntil: null, finishedAt: now })
    .where(and(eq(deliveries.endpointId, endpointId), eq(deliveries.status, "pending")));
}

/**
 * Records one attempt and moves the delivery on: delivered on 2xx; 410 ends it (and disables an
 * endpoint); anything else is retried on the backoff schedule until the last attempt fails it. A resend asked while the
 * attempt was in flight (resend.ts) keeps it pending and due whatever the answer but a 410.
 * An attempt whose lease was lost (its worker stalled past it) is recorded but decides nothing.
 */
export async function recordAttempt(claim: ClaimedDelivery, result: AttemptResult, backoffScale: number, now = clock.now()): Promise<void> {
  // Read committed: the count's update takes the delivery's row lock before its lease is checked, so nothing can take
  // the delivery over between the check and what it decides. Serializable added nothing but retries: workers recording
  // different deliveries at once collided on the table's pages, and under load the retries outlasted a short lease,
  // so another worker sent an answered callback again.
  await write(
    async (tx) => {
      await tx.insert(deliveryAttempts).values({
        deliveryId: claim.id,
        attemptedAt: now - result.latencyMs,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        responseSnippet: result.responseSnippet,
        error: result.error,
      });
      const [current] = await tx
        .update(deliveries)
        .set({ attemptCount: sql`${deliveries.attemptCount} + 1` })
        .where(eq(deliveries.id, claim.id))
        .returning();
      if (!current || current.status !== "pending" || current.leaseUntil !== claim.leaseUntil) return;
      const last = { lastStatusCode: result.statusCode, lastError: result.error, leaseUntil: null };
      // A resend asked during this attempt is owed whatever the attempt got, so the delivery stays pending and due;
      // only a 410 still ends it, since the receiver asked for nothing more.
      const resendAsked = current.nextAttemptAt !== claim.dueAt;
      if (resendAsked && !result.gone) return tx.update(deliveries).set(last).where(eq(deliveries.id, claim.id));
      const end = async (status: "delivered" | "failed" | "cancelled", lastError = result.error) =>
        tx
          .update(deliveries)
          .set({ ...last, status, lastError, finishedAt: now })
          .where(eq(deliveries.id, claim.id));
      if (result.delivered) return end("delivered");
      if (result.gone) {
        if (claim.destination === "endpoint" && claim.endpointId) {
          const reason = `answered 410 Gone on ${new Date(now).toISOString()}`;
          await tx
            .update(webhookEndpoints)
            .set({ enabled: false, disabledReason: reason })
            .where(eq(webhookEndpoints.id, claim.endpointId));
          await end("cancelled", `${reason}; the endpoint was disabled`);
          return cancelEndpointDeliveries(tx, claim.endpointId, "the endpoint was disabled after answering 410 Gone", now);
        }
        return end(
          "cancelled",
          `answered 410 Gone; this ${claim.destination === "forward" ? "forwarding" : "callback"} address asked for no more deliveries`,
        );
      }
      const delay = retryDelayMs(current.attemptCount, backoffScale);
      if (delay === null) return end("failed");
      await tx
        .update(deliveries)
        .set({ ...last, nextAttemptAt: now + delay })
        .where(eq(deliveries.id, claim.id));
    },
    { isolation: "read committed" },
  );
}
