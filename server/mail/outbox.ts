// The mail outbox: queued in the caller's transaction, claimed under a lease by the mailer, retried on the callbacks' schedule.
// Bodies are sealed under OWO_MASTER_KEY: they carry single-use links (invites, resets) whose tokens are otherwise only hashed.
import { and, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { skippingLocked } from "../../db/functions";
import { mails } from "../../db/schema";
import { ApiError } from "../api-error";
import { seal, unseal } from "../auth/master-key";
import { clock } from "../clock";
import { settings } from "../settings";
import { normaliseEmail } from "./addresses";
import { retryDelayMs } from "../webhooks/backoff";
import type { Letter } from "./letters";

export type Recipient = { to: string; userId?: string | null; merchantId?: string | null };

/** Written inside the transaction of what caused the mail, so the mail exists exactly when that happened. */
export async function queueMail(tx: Tx, recipient: Recipient, letter: Letter, now = clock.now()): Promise<void> {
  await tx.insert(mails).values({
    merchantId: recipient.merchantId ?? null,
    userId: recipient.userId ?? null,
    toAddress: recipient.to,
    kind: letter.kind,
    subject: letter.subject,
    textBody: seal(letter.text),
    htmlBody: seal(letter.html),
    status: "pending",
    nextAttemptAt: now,
    createdAt: now,
  });
}

export type MailView = {
  id: number;
  to: string;
  kind: string;
  subject: string;
  text: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
};

function view(r: typeof mails.$inferSelect): MailView {
  return {
    id: r.id,
    to: r.toAddress,
    kind: r.kind,
    subject: r.subject,
    text: unseal(r.textBody),
    status: r.status,
    attempts: r.attemptCount,
    lastError: r.lastError,
    createdAt: new Date(r.createdAt).toISOString(),
    sentAt: r.sentAt === null ? null : new Date(r.sentAt).toISOString(),
  };
}

/**
 * The dashboard's "Mail sent by this Owo", offered only while no SMTP is configured. One owner reads the team's
 * mail and mail addressed to themselves, never another person's account mail (a reset link is theirs alone).
 */
export async function readOutbox(merchantId: string, userId: string, limit = 100): Promise<MailView[]> {
  if (settings().smtpUrl) throw new ApiError("S404", "This Owo sends its mail over SMTP (OWO_SMTP_URL); there is no outbox to read here");
  return (
    await db()
      .select()
      .from(mails)
      .where(or(eq(mails.merchantId, merchantId), eq(mails.userId, userId)))
      .orderBy(desc(mails.id))
      .limit(limit)
  ).map(view);
}

/** Everything, for the operator's CLI; `to` narrows it to one address. */
export async function allMail(opts: { to?: string; limit?: number } = {}): Promise<MailView[]> {
  return (
    await db()
      .select()
      .from(mails)
      .where(opts.to ? eq(mails.toAddress, normaliseEmail(opts.to)) : undefined)
      .orderBy(desc(mails.id))
      .limit(opts.limit ?? 50)
  ).map(view);
}

export type ClaimedMail = { id: number; to: string; subject: string; text: string; html: string; createdAt: number; leaseUntil: number };

function dueNow(now: number) {
  return and(eq(mails.status, "pending"), lte(mails.nextAttemptAt, now), or(isNull(mails.leaseUntil), lte(mails.leaseUntil, now)));
}

/**
 * Leases up to `limit` due mails: two mailers never send the same one, and a dead mailer's mail is due again after its
 * lease. Rows another mailer is claiming are skipped, not waited for (db/functions.ts `skippingLocked`).
 */
export async function claimDueMail(limit: number, leaseMs: number, now = clock.now()): Promise<ClaimedMail[]> {
  if (limit <= 0 || !(await db().select({ id: mails.id }).from(mails).where(dueNow(now)).limit(1))[0]) return [];
  return write(
    async (tx) => {
      const rows = await skippingLocked(tx.select().from(mails).where(dueNow(now)).orderBy(mails.nextAttemptAt, mails.id).limit(limit));
      if (rows.length === 0) return [];
      const leaseUntil = now + leaseMs;
      await tx
        .update(mails)
        .set({ leaseUntil })
        .where(
          inArray(
            mails.id,
            rows.map((r) => r.id),
          ),
        );
      return rows.map((r) => ({
        id: r.id,
        to: r.toAddress,
        subject: r.subject,
        text: unseal(r.textBody),
        html: unseal(r.htmlBody),
        createdAt: r.createdAt,
        leaseUntil,
      }));
    },
    { isolation: "read committed" },
  );
}

/** Extends the leases of mail still being sent; a lease another mailer took over is left alone. */
export async function renewMailLeases(held: readonly ClaimedMail[], leaseMs: number, now = clock.now()): Promise<void> {
  if (held.length === 0) return;
  // The claims change only after the commit: PostgreSQL may run the body again, and it must see the old leases.
  const renewed = await write(
    async (tx) => {
      const kept: ClaimedMail[] = [];
      for (const m of held) {
        const { length: changes } = await tx
          .update(mails)
          .set({ leaseUntil: now + leaseMs })
          .where(and(eq(mails.id, m.id), eq(mails.leaseUntil, m.leaseUntil), eq(mails.status, "pending")))
          .returning({ id: mails.id });
        if (changes > 0) kept.push(m);
      }
      return kept;
      // Each update is a compare-and-set on the lease, which read committed re-checks on the newest row.
    },
    { isolation: "read committed" },
  );
  for (const m of renewed) m.leaseUntil = now + leaseMs;
}

/** A stopping mailer hands back what it did not start, so the next one need not wait out the lease. */
export async function releaseMailLeases(held: readonly ClaimedMail[]): Promise<void> {
  if (held.length === 0) return;
  await write(
    async (tx) => {
      for (const m of held)
        await tx
          .update(mails)
          .set({ leaseUntil: null })
          .where(and(eq(mails.id, m.id), eq(mails.leaseUntil, m.leaseUntil)));
    },
    { isolation: "read committed" },
  );
}

/**
 * Sent, or retried after the backoff until the schedule runs out. A mail whose lease was lost decides nothing. Read
 * committed: the first update is a compare-and-set on the lease that also locks the row, so nothing overtakes what
 * follows; serializable only made mailers recording different mail at once retry each other, past a short lease.
 */
export async function recordMailAttempt(claim: ClaimedMail, error: string | null, backoffScale: number, now = clock.now()): Promise<void> {
  await write(
    async (tx) => {
      const [counted] = await tx
        .update(mails)
        .set({ attemptCount: sql`${mails.attemptCount} + 1` })
        .where(and(eq(mails.id, claim.id), eq(mails.status, "pending"), eq(mails.leaseUntil, claim.leaseUntil)))
        .returning({ attemptCount: mails.attemptCount });
      if (!counted) return;
      if (error === null) {
        await tx.update(mails).set({ status: "sent", sentAt: now, leaseUntil: null, lastError: null }).where(eq(mails.id, claim.id));
        return;
      }
      const delay = retryDelayMs(counted.attemptCount, backoffScale);
      await tx
        .update(mails)
        .set(
          delay === null
            ? { status: "failed", lastError: error, leaseUntil: null }
            : { lastError: error, leaseUntil: null, nextAttemptAt: now + delay },
        )
        .where(eq(mails.id, claim.id));
    },
    { isolation: "read committed" },
  );
}
