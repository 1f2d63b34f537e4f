// Self-service password reset: a single-use link (hashed at rest, 30 minutes) mailed to the address; using it sets a new password.
import { eq } from "drizzle-orm";
import { db, write } from "../../db/client";
import { accountTokens, users } from "../../db/schema";
import { sha256 } from "../auth/token-hash";
import { clock } from "../clock";
import { resetLetter } from "../mail/letters";
import { queueMail } from "../mail/outbox";
import { settings } from "../settings";
import { recordAccountAudit } from "../team/audit";
import { issueAccountToken, issuedSince, tokenProblem, useAccountToken, type TokenProblem } from "./account-tokens";
import { log } from "../logger";
import { noticeUser, type Origin } from "./security-notices";
import { normaliseEmail } from "../mail/addresses";
import { newPasswordHash, setPasswordHash } from "./users";

export const RESET_MINUTES = 30;

/** At most one reset link a minute and five an hour to one address, like the verification link's re-send. */
const RESET_AFTER_MS = 60_000;
const RESETS_PER_HOUR = 5;

/**
 * Asks for a reset link. The answer does the same work whether or not the address has an account, and whether or
 * not it is within its limit: it only hands the request on and returns, so neither its content nor its timing says
 * who has an account. The lookup, the link and the mail follow after the answer (`resetMailed` is for tests).
 */
export function requestPasswordReset(email: string, now = clock.now()): Promise<void> {
  const mailing = mailResetLink(email, now).catch((err: unknown) => log.error({ err }, "password reset not mailed"));
  pending.add(mailing);
  void mailing.finally(() => pending.delete(mailing));
  return Promise.resolve();
}

const pending = new Set<Promise<void>>();

/** Settles once every reset asked for so far has been mailed or refused. */
export async function resetMailed(): Promise<void> {
  await Promise.all([...pending]);
}

async function mailResetLink(email: string, now: number): Promise<void> {
  await write(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.email, normaliseEmail(email)));
    if (!user) return;
    // Past its limit an address is not mailed again: each new link would void the last one the person may be using.
    if ((await issuedSince(tx, user.id, "reset_password", now - RESET_AFTER_MS)) > 0) return;
    if ((await issuedSince(tx, user.id, "reset_password", now - 3_600_000)) >= RESETS_PER_HOUR) return;
    const token = await issueAccountToken(tx, user.id, "reset_password", RESET_MINUTES * 60000, now);
    const resetUrl = `${settings().publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await queueMail(tx, { to: user.email, userId: user.id }, resetLetter({ resetUrl, minutes: RESET_MINUTES }), now);
  });
}

/** What the reset page says before showing its form: null while the link still works. */
export async function resetLinkProblem(token: string, now = clock.now()): Promise<TokenProblem | null> {
  return tokenProblem(db(), token, "reset_password", now);
}

/** The address a reset link was mailed to (for the policy's "not your e-mail" rule); empty for a link that names no one. */
async function resetLinkAddress(token: string): Promise<string> {
  return (
    (
      await db()
        .select({ email: users.email })
        .from(accountTokens)
        .innerJoin(users, eq(users.id, accountTokens.userId))
        .where(eq(accountTokens.tokenHash, sha256(token)))
    )[0]?.email ?? ""
  );
}

/** Uses the link: a new password, the link spent, the person told by mail, the change in their teams' audit logs. */
export async function completePasswordReset(
  token: string,
  password: string,
  origin: Origin,
  now = clock.now(),
): Promise<{ email: string }> {
  // Slow on purpose, so never inside the transaction; checked against the address the link was mailed to.
  const passwordHash = await newPasswordHash(password, await resetLinkAddress(token));
  return write(async (tx) => {
    const userId = await useAccountToken(tx, token, "reset_password", now);
    await setPasswordHash(tx, userId, passwordHash);
    await recordAccountAudit(tx, userId, "account.resetPassword", { ip: origin.ip }, now);
    await noticeUser(tx, userId, "Your Owo password was reset with a link mailed to you", origin, now);
    return { email: (await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]?.email ?? "" };
  });
}
