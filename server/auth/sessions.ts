/**
 * Dashboard sessions, kept in the database so that ending one holds on every instance. The next-auth cookie only
 * carries a session id (`sid`); each door asks `liveSessionUser` whether it is still alive. Answers are cached for
 * at most OWO_REVOCATION_SECONDS, so a session ended on another instance dies here within that bound (and at once
 * when it is ended in this process).
 */
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { sessions, type SessionRow } from "../../db/schema";
import { clock } from "../clock";
import { newId } from "../identifiers";
import { settings } from "../settings";

export type SessionDevice = { userAgent: string; ip: string };
export type EndReason = NonNullable<SessionRow["endedReason"]>;
/** What the Sessions page lists: live sessions only, newest first. */
export type SessionView = Pick<SessionRow, "id" | "createdAt" | "lastSeenAt" | "expiresAt" | "userAgent" | "ip">;

/** Last-seen is written at most this often per session: it is for people reading the Sessions page, not an audit. */
const TOUCH_EVERY_MS = 60_000;

type Checked = { userId: string | null; expiresAt: number; checkedAt: number };
// On globalThis: Next's bundle and the front load this module separately, and both must forget an ended session.
const holder = globalThis as unknown as { __owoSessionCache?: Map<string, Checked> };
const cache = (holder.__owoSessionCache ??= new Map());

/** A new session for a person who has just proved who they are (`secondFactorAt`: with a second factor, then). */
export async function startSession(
  userId: string,
  device: SessionDevice,
  now = clock.now(),
  secondFactorAt: number | null = null,
): Promise<{ id: string; expiresAt: number }> {
  const id = newId("ses", 32);
  const expiresAt = now + settings().sessionMaxSeconds * 1000;
  await write(async (tx) =>
    tx.insert(sessions).values({
      id,
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      userAgent: device.userAgent.slice(0, 300),
      ip: device.ip.slice(0, 64),
      secondFactorAt,
    }),
  );
  return { id, expiresAt };
}

/** The user whose live session this is, or null: ended, past its absolute lifetime, or never existed. */
export async function liveSessionUser(sessionId: string, now = clock.now()): Promise<string | null> {
  const maxAgeMs = settings().revocationSeconds * 1000;
  const known = cache.get(sessionId);
  if (known && now - known.checkedAt < maxAgeMs) return known.userId && now < known.expiresAt ? known.userId : null;
  const [row] = await db().select().from(sessions).where(eq(sessions.id, sessionId));
  const alive = row !== undefined && row.endedAt === null && now < row.expiresAt;
  if (maxAgeMs > 0) {
    if (cache.size > 10_000) cache.clear(); // a bound on memory; the database stays the truth
    cache.set(sessionId, { userId: alive ? row.userId : null, expiresAt: row?.expiresAt ?? 0, checkedAt: now });
  }
  if (!alive) return null;
  if (now - row.lastSeenAt >= TOUCH_EVERY_MS) {
    await write(async (tx) => tx.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId)));
  }
  return row.userId;
}

function forget(sessionIds: string[]): void {
  for (const id of sessionIds) cache.delete(id);
}

/** Ends one session (sign-out). Ending an ended session changes nothing. */
export async function endSession(sessionId: string, reason: EndReason = "signed-out", now = clock.now()): Promise<void> {
  await write(async (tx) =>
    tx
      .update(sessions)
      .set({ endedAt: now, endedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.endedAt))),
  );
  forget([sessionId]);
}

/** Ends one of this user's own sessions (the Sessions page's "Sign out" beside a device); false if it is not theirs or already over. */
export async function revokeSession(userId: string, sessionId: string, now = clock.now()): Promise<boolean> {
  const done = await write(async (tx) =>
    tx
      .update(sessions)
      .set({ endedAt: now, endedReason: "revoked" })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.endedAt)))
      .returning({ id: sessions.id }),
  );
  forget([sessionId]);
  return done.length > 0;
}

/**
 * Ends every live session of a user, but `keep` (the one asking, when it should stay signed in), in the caller's
 * transaction: a password change commits together with the end of the sessions it ends. This process's cached
 * answers are dropped at once: better-sqlite3 transactions are synchronous, so no request is checked in between,
 * and a rollback only costs a fresh read.
 */
export async function endUserSessions(
  tx: Tx,
  userId: string,
  reason: EndReason,
  opts: { keep?: string; now?: number } = {},
): Promise<string[]> {
  const now = opts.now ?? clock.now();
  const live = await tx
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)));
  const ended = live.map((s) => s.id).filter((id) => id !== opts.keep);
  for (const id of ended) await tx.update(sessions).set({ endedAt: now, endedReason: reason }).where(eq(sessions.id, id));
  forget(ended);
  return ended;
}

/** Ends every session of a user at once ("sign out everywhere"), in a transaction of its own. */
export async function revokeAllSessions(userId: string, opts: { keep?: string } = {}): Promise<number> {
  return (await write(async (tx) => endUserSessions(tx, userId, "all-revoked", opts))).length;
}

/** A user's live sessions, newest first. */
export async function listSessions(userId: string, now = clock.now()): Promise<SessionView[]> {
  return db()
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.createdAt));
}

/** When the session last proved the second factor; null when never (or no such session of this person). */
export async function secondFactorCheckedAt(userId: string, sessionId: string): Promise<number | null> {
  return (
    (
      await db()
        .select({ at: sessions.secondFactorAt })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    )[0]?.at ?? null
  );
}

/** Records a fresh second-factor check on the person's own session. */
export async function markSecondFactor(userId: string, sessionId: string, now = clock.now()): Promise<void> {
  await write(async (tx) =>
    tx
      .update(sessions)
      .set({ secondFactorAt: now })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId))),
  );
}
