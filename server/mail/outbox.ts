// The mail outbox: queued in the caller's transaction, claimed under a lease by the mailer, retried on the callbacks' schedule.
// Bodies are sealed under OWO_MASTER_KEY: they carry single-use links (invites, resets) whose tokens are otherwise only hashed.
import { and, desc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { mails } from "../../db/schema";
import { ApiError } from "../api-error";
import { seal, unseal } from "../auth/master-key";
import { clock } from "../clock";
import { settings } from "../settings";
import { normaliseEmail } from "../users/users";
import { retryDelayMs } from "../webhooks/backoff";
import type { Letter } from "./letters";

export type Recipient = { to: string; userId?: string | null; merchantId?: string | null };

/** Written inside the transaction of what caused the mail, so the mail exists exactly when that happened. */
export function queueMail(tx: Tx, recipient: Recipient, letter: Letter, now = clock.now()): void {
  tx.insert(mails)
    .values({
      merchantId: recipient.merchantId ?? null, userId: recipient.userId ?? null, toAddress: recipient.to, kind: letter.kind,
      subject: letter.subject, textBody: seal(letter.text), htmlBody: seal(letter.html), status: "pending", nextAttemptAt: now, createdAt: now,
    })
    .run();
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
    id: r.id, to: r.toAddress, kind: r.kind, subject: r.subject, text: unseal(r.textBody), status: r.status, attempts: r.attemptCount,
    lastError: r.lastError, createdAt: new Date(r.createdAt).toISOString(), sentAt: r.sentAt === null ? null : new Date(r.sentAt).toISOString(),
  };
}

/**
 * The dashboard's "Mail sent by this Owo", offered only while no SMTP is configured. One owner reads the team's
 * mail and mail addressed to themselves, never another person's account mail (a reset link is theirs alone).
 */
export function readOutbox(merchantId: string, userId: string, limit = 100): MailView[] {
  if (settings().smtpUrl) throw new ApiError("S404", "This Owo sends its mail over SMTP (OWO_SMTP_URL); there is no outbox to read here");
  return db()
    .select()
    .from(mails)
    .where(or(eq(mails.merchantId, merchantId), eq(mails.userId, userId)))
    .orderBy(desc(mails.id))
    .limit(limit)
    .all()
    .map(view);
}

/** Everything, for the operator's CLI; `to` narrows it to one address. */
export function allMail(opts: { to?: string; limit?: number } = {}): MailView[] {
  return db()
    .select()
    .from(mails)
    .where(opts.to ? eq(mails.toAddress, normaliseEmail(opts.to)) : undefined)
    .orderBy(desc(mails.id))
    .limit(opts.limit ?? 50)
    .all()
    .map(view);
}

export type ClaimedMail = { id: number; to: string; subject: string; text: string; html: string; createdAt: number; leaseUntil: number };

function dueNow(now: number) {
  return and(eq(mails.status, "pending"), lte(mails.nextAttemptAt, now), or(isNull(mails.leaseUntil), lte(mails.leaseUntil, now)));
}

/** Leases up to `limit` due mails: two mailers never send the same one, and a dead mailer's mail is due again after its lease. */
export function claimDueMail(limit: number, leaseMs: number, now = clock.now()): ClaimedMail[] {
  if (limit <= 0 || !db().select({ id: mails.id }).from(mails).where(dueNow(now)).limit(1).get()) return [];
  return write((tx) => {
    const rows = tx.select().from(mails).where(dueNow(now)).orderBy(mails.nextAttemptAt, mails.id).limit(limit).all();
    if (rows.length === 0) return [];
    const leaseUntil = now + leaseMs;
    tx.update(mails).set({ leaseUntil }).where(inArray(mails.id, rows.map((r) => r.id))).run();
    return rows.map((r) => ({ id: r.id, to: r.toAddress, subject: r.subject, text: unseal(r.textBody), html: unseal(r.htmlBody), createdAt: r.createdAt, leaseUntil }));
  });
}

/** Extends the leases of mail still being sent; a lease another mailer took over is left alone. */
export function renewMailLeases(held: readonly ClaimedMail[], leaseMs: number, now = clock.now()): void {
  if (held.length === 0) return;
  write((tx) => {
    for (const m of held) {
      const { changes } = tx.update(mails).set({ leaseUntil: now + leaseMs }).where(and(eq(mails.id, m.id), eq(mails.leaseUntil, m.leaseUntil), eq(mails.status, "pending"))).run();
      if (changes > 0) m.leaseUntil = now + leaseMs;
    }
  });
}

/** A stopping mailer hands back what it did not start, so the next one need not wait out the lease. */
export function releaseMailLeases(held: readonly ClaimedMail[]): void {
  if (held.length === 0) return;
  write((tx) => {
    for (const m of held) tx.update(mails).set({ leaseUntil: null }).where(and(eq(mails.id, m.id), eq(mails.leaseUntil, m.leaseUntil))).run();
  });
}

/** Sent, or retried after the backoff until the schedule runs out. A mail whose lease was lost decides nothing. */
export function recordMailAttempt(claim: ClaimedMail, error: string | null, backoffScale: number, now = clock.now()): void {
  write((tx) => {
    const current = tx.select().from(mails).where(eq(mails.id, claim.id)).get();
    if (!current || current.status !== "pending" || current.leaseUntil !== claim.leaseUntil) return;
    const attemptCount = current.attemptCount + 1;
    if (error === null) {
      tx.update(mails).set({ status: "sent", attemptCount, sentAt: now, leaseUntil: null, lastError: null }).where(eq(mails.id, claim.id)).run();
      return;
    }
    const delay = retryDelayMs(attemptCount, backoffScale);
    tx.update(mails)
      .set(delay === null ? { status: "failed", attemptCount, lastError: error, leaseUntil: null } : { attemptCount, lastError: error, leaseUntil: null, nextAttemptAt: now + delay })
      .where(eq(mails.id, claim.id))
      .run();
  });
}
