// What a provider says of a refund, recorded (API.md "Refunds"): its id and state once it answers, a flag and the
// next ask when it does not, and PROCESSED or FAILED once, with the payment's refund event and callback.
import { eq } from "drizzle-orm";
import { write } from "../../db/client";
import { lockedForUpdate } from "../../db/functions";
import { payments, refunds, type RefundRow } from "../../db/schema";
import { clock } from "../clock";
import { log } from "../logger";
import type { RefundState } from "../providers/connector";
import { settings } from "../settings";
import { refundNeedsAttentionInTx, refundSettledInTx } from "./lifecycle";

/** How long until the provider is asked about a refund again, after `checks` asks: 5 s, 15 s, 1 min, 5 min, 15 min, then hourly. */
const CHECK_SCHEDULE_MS = [5_000, 15_000, 60_000, 300_000, 900_000, 3_600_000];

export function nextCheckDelay(checks: number): number {
  const base = CHECK_SCHEDULE_MS[Math.min(Math.max(checks, 1), CHECK_SCHEDULE_MS.length) - 1] ?? 3_600_000;
  return Math.round(base * settings().requeryBackoffScale);
}

/**
 * The provider's word on a refund: its id, and PROCESSED or FAILED once it says so; applied once. One that needs the
 * customer's account is NEEDS_ATTENTION (refund.needs_attention, once) and waits for the merchant (refund-attention.ts),
 * still asked about on the schedule: the account may be given at the provider itself, and its notice lost; one the
 * provider says is on its way again is PENDING and followed again.
 */
export async function recordRefundState(refundId: string, state: RefundState, now = clock.now()): Promise<void> {
  if (state.state === "processed") return settleRefund(refundId, "PROCESSED", null, state.refundId, now);
  if (state.state === "failed") return settleRefund(refundId, "FAILED", "the provider reports the refund failed", state.refundId, now);
  await write(async (tx) => {
    const [r] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
    if (!r || (r.status !== "PENDING" && r.status !== "NEEDS_ATTENTION")) return;
    const checks = r.checks + 1;
    if (state.state === "needs_attention") {
      const nextCheckAt = now + nextCheckDelay(checks);
      if (r.status === "NEEDS_ATTENTION") {
        await tx.update(refunds).set({ checks, nextCheckAt }).where(eq(refunds.id, refundId));
        return;
      }
      const waiting: RefundRow = {
        ...r,
        status: "NEEDS_ATTENTION",
        providerRefundId: state.refundId,
        unansweredAt: null,
        checks,
        nextCheckAt,
        updatedAt: now,
      };
      await tx.update(refunds).set(waiting).where(eq(refunds.id, refundId));
      const [p] = await tx.select().from(payments).where(eq(payments.id, r.paymentId));
      if (p) await refundNeedsAttentionInTx(tx, p, waiting, now);
      return;
    }
    await tx
      .update(refunds)
      .set({
        status: "PENDING",
        providerRefundId: state.refundId,
        unansweredAt: null,
        checks,
        nextCheckAt: now + nextCheckDelay(checks),
        updatedAt: now,
      })
      .where(eq(refunds.id, refundId));
  });
}

/**
 * No usable answer: asked again on the schedule. One that may exist at the provider is flagged (unansweredAt) and never
 * failed here; a submission that certainly never reached the provider this many times ends FAILED, freeing its amount.
 */
export const MAX_UNANSWERED_SUBMISSIONS = 5;

export async function noteUnanswered(refundId: string, why: string, o: { mayExistAtProvider: boolean }, now = clock.now()): Promise<void> {
  const giveUp = await write(async (tx) => {
    const [r] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
    if (!r || (r.status !== "PENDING" && r.status !== "NEEDS_ATTENTION")) return false;
    const checks = r.checks + 1;
    const unansweredAt = r.providerRefundId === null && o.mayExistAtProvider ? (r.unansweredAt ?? now) : r.unansweredAt;
    if (r.providerRefundId === null && unansweredAt === null && checks >= MAX_UNANSWERED_SUBMISSIONS) return true;
    await tx
      .update(refunds)
      .set({ checks, unansweredAt, nextCheckAt: now + nextCheckDelay(checks), updatedAt: now })
      .where(eq(refunds.id, refundId));
    return false;
  });
  log.warn({ refundId, why }, "refund: no usable answer from the provider");
  if (giveUp) await settleRefund(refundId, "FAILED", `the provider could not be reached: ${why}`, null, now);
}

/** PENDING or NEEDS_ATTENTION → PROCESSED or FAILED, once, with its event and callback (refund.processed / refund.failed). */
export async function settleRefund(
  refundId: string,
  status: "PROCESSED" | "FAILED",
  failureReason: string | null,
  providerRefundId: string | null = null,
  now = clock.now(),
): Promise<void> {
  // Read committed: the payment locked first, as every writer of its money locks it, then the refund as its last
  // writer left it; the merchant's books are joined only at the posting (db/client.ts joinQueue).
  await write(
    async (tx) => {
      const [owner] = await tx.select({ paymentId: refunds.paymentId }).from(refunds).where(eq(refunds.id, refundId));
      if (!owner) return;
      const [p] = await lockedForUpdate(tx.select().from(payments).where(eq(payments.id, owner.paymentId)));
      const [r] = await lockedForUpdate(tx.select().from(refunds).where(eq(refunds.id, refundId)));
      if (!r || (r.status !== "PENDING" && r.status !== "NEEDS_ATTENTION")) return;
      const settled: RefundRow = {
        ...r,
        status,
        failureReason,
        providerRefundId: providerRefundId ?? r.providerRefundId,
        checks: r.checks + 1,
        nextCheckAt: null,
        updatedAt: now,
        settledAt: now,
      };
      await tx.update(refunds).set(settled).where(eq(refunds.id, refundId));
      if (p) await refundSettledInTx(tx, p, settled, now);
    },
    { isolation: "read committed" },
  );
}
