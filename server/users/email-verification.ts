// E-mail verification: a link mailed at sign-up; until it is opened the person may sign in, but not invite, connect providers or go live.
import { eq } from "drizzle-orm";
import { write, type Tx } from "../../db/client";
import { users } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import { VERIFY_DAYS, verifyEmailLetter } from "../mail/letters";
import { queueMail } from "../mail/outbox";
import { settings } from "../settings";
import { recordAccountAudit } from "../team/audit";
import { issueAccountToken, issuedSince, useAccountToken } from "./account-tokens";

const VERIFY_MS = VERIFY_DAYS * 24 * 3600 * 1000;
const RESEND_AFTER_MS = 60_000;

/** A fresh verification link for the person, in the caller's transaction (the mail goes in the same one). */
export async function issueVerificationUrl(tx: Tx, userId: string, now = clock.now()): Promise<string> {
  const token = await issueAccountToken(tx, userId, "verify_email", VERIFY_MS, now);
  return `${settings().publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
}

/** Opens the mailed link: the address is confirmed once; a used, expired or unknown link is refused in words. */
export async function verifyEmail(token: string, now = clock.now()): Promise<{ email: string }> {
  return write(async (tx) => {
    const userId = await useAccountToken(tx, token, "verify_email", now);
    await tx.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, userId));
    await recordAccountAudit(tx, userId, "account.verifyEmail", {}, now);
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    return { email: user?.email ?? "" };
  });
}

/** Sends the link again, at most once a minute. */
export async function resendVerification(userId: string, now = clock.now()): Promise<{ sentTo: string }> {
  return write(async (tx) => {
    const [user] = await tx.select({ email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId));
    if (!user) throw new ApiError("S1", "Sign in again");
    if (user.verifiedAt !== null) throw new ApiError("S14", "Your e-mail address is already confirmed");
    if ((await issuedSince(tx, userId, "verify_email", now - RESEND_AFTER_MS)) > 0)
      throw new ApiError("S429", "A link was sent less than a minute ago; check your mail first");
    await queueMail(tx, { to: user.email, userId }, verifyEmailLetter({ verifyUrl: await issueVerificationUrl(tx, userId, now) }), now);
    return { sentTo: user.email };
  });
}
