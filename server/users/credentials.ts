// A signed-in person changes their own password or e-mail: both need the current password and, where two-factor
// sign-in is on, a fresh code from the app. The address a change leaves is told, in the transaction that made it.
import "server-only";
import { and, eq, ne } from "drizzle-orm";
import { db, write } from "../../db/client";
import { users } from "../../db/schema";
import { invalidFields } from "../api-error";
import { passwordMatches } from "../auth/passwords";
import { clock } from "../clock";
import { emailProblem, normaliseEmail } from "../mail/addresses";
import { verifyEmailLetter } from "../mail/letters";
import { queueMail } from "../mail/outbox";
import { recordAccountAudit } from "../team/audit";
import { issueVerificationUrl } from "./email-verification";
import { noticeUser, type Origin } from "./security-notices";
import { requireSecondFactor } from "./two-factor";
import { newPasswordHash, setPasswordHash } from "./users";

export type Proof = { currentPassword: string; code?: string };

/** The person proves it is them: the current password, then (two-factor on) a fresh code. */
async function proveItIsThem(userId: string, proof: Proof, now: number): Promise<{ email: string }> {
  const [user] = await db()
    .select({ email: users.email, passwordHash: users.passwordHash, totpEnabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || !(await passwordMatches(user.passwordHash, proof.currentPassword)))
    throw invalidFields([{ field: "currentPassword", message: "is not your current password" }]);
  if (user.totpEnabledAt !== null) {
    if (!proof.code?.trim())
      throw invalidFields([{ field: "code", message: "is required: two-factor sign-in is on, so type the code your app shows" }]);
    await requireSecondFactor(userId, proof.code.trim(), now);
  }
  return { email: user.email };
}

/** A new password; every session signed in with the old one ends (this one too: sign in again with the new one). */
export async function changePassword(userId: string, input: Proof & { newPassword: string }, origin: Origin, now = clock.now()) {
  const { email } = await proveItIsThem(userId, input, now);
  const passwordHash = await newPasswordHash(input.newPassword, email);
  await write(async (tx) => {
    await setPasswordHash(tx, userId, passwordHash);
    await recordAccountAudit(tx, userId, "account.changePassword", {}, now);
    await noticeUser(tx, userId, "Your Owo password was changed; every browser signed in with the old one was signed out", origin, now);
  });
  return { changed: true as const };
}

/** A new address, unconfirmed until its link is opened; the old address is told where the account went. */
export async function changeEmail(userId: string, input: Proof & { newEmail: string }, origin: Origin, now = clock.now()) {
  const problem = emailProblem(input.newEmail);
  if (problem) throw invalidFields([{ field: "newEmail", message: problem }]);
  const newEmail = normaliseEmail(input.newEmail);
  const { email } = await proveItIsThem(userId, input, now);
  if (newEmail === email) throw invalidFields([{ field: "newEmail", message: "is already this account's address" }]);
  await write(async (tx) => {
    if (
      (
        await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, newEmail), ne(users.id, userId)))
      )[0]
    )
      throw invalidFields([{ field: "newEmail", message: "cannot be used for this account" }]);
    // Told before the change, so the notice goes to the address being left.
    await noticeUser(tx, userId, `The e-mail address of your Owo account was changed from ${email} to ${newEmail}`, origin, now);
    await tx.update(users).set({ email: newEmail, emailVerifiedAt: null }).where(eq(users.id, userId));
    await queueMail(tx, { to: newEmail, userId }, verifyEmailLetter({ verifyUrl: await issueVerificationUrl(tx, userId, now) }), now);
    await recordAccountAudit(tx, userId, "account.changeEmail", {}, now);
  });
  return { email: newEmail };
}
