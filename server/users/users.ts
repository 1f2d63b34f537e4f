// People who sign in: every creation, credential check and password reset goes through here, so an e-mail is
// normalised one way and a password is hashed and checked one way (sign-up, invites, the CLI, next-auth).
import "server-only";
import { eq } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { users } from "../../db/schema";
import { ApiError, invalidFields, type FieldError } from "../api-error";
import { hashPassword, noPasswordMatches, passwordMatches, passwordProblem } from "../auth/passwords";
import { endUserSessions } from "../auth/sessions";
import { clock } from "../clock";
import { newId } from "../identifiers";
import { emailProblem, normaliseEmail } from "../mail/addresses";
import { noticeUser, UNKNOWN_ORIGIN } from "./security-notices";

/** What is wrong with the e-mail and password a person chose, by field. */
export function credentialFieldErrors(input: { email: string; password: string }): FieldError[] {
  const errors: FieldError[] = [];
  const email = emailProblem(input.email);
  if (email) errors.push({ field: "email", message: email });
  const password = passwordProblem(input.password, normaliseEmail(input.email));
  if (password) errors.push({ field: "password", message: password });
  return errors;
}

/** A new person, checked and with the password hashed: hashing is deliberately slow, so it runs before any transaction. */
export type NewUser = { email: string; name: string; passwordHash: string };

export async function prepareUser(input: { email: string; password: string; name?: string }): Promise<NewUser> {
  const errors = credentialFieldErrors(input);
  if (errors.length) throw invalidFields(errors);
  const email = normaliseEmail(input.email);
  return { email, name: input.name?.trim() || email, passwordHash: await hashPassword(input.password) };
}

/** Adds the person in the caller's transaction; `whenTaken` says what to tell someone whose address is registered. */
export async function insertUser(tx: Tx, user: NewUser, whenTaken: () => ApiError, now = clock.now()): Promise<string> {
  if ((await tx.select({ id: users.id }).from(users).where(eq(users.email, user.email)))[0]) throw whenTaken();
  const id = newId("usr");
  await tx.insert(users).values({ id, email: user.email, name: user.name, passwordHash: user.passwordHash, createdAt: now });
  return id;
}

export type SignedInUser = { id: string; email: string; name: string };

/** The person these credentials belong to, or null: an unknown address and a wrong password look the same. */
export async function userByCredentials(email: string, password: string): Promise<SignedInUser | null> {
  const normalised = normaliseEmail(email);
  if (!normalised || !password) return null;
  const [user] = await db().select().from(users).where(eq(users.email, normalised));
  const matches = user ? await passwordMatches(user.passwordHash, password) : await noPasswordMatches(password);
  if (!user || !matches) return null;
  return { id: user.id, email: user.email, name: user.name };
}

/** A new password, checked and hashed: hashing is deliberately slow, so it runs before any transaction. */
export async function newPasswordHash(password: string, email: string): Promise<string> {
  const problem = passwordProblem(password, normaliseEmail(email));
  if (problem) throw invalidFields([{ field: "password", message: problem }]);
  return hashPassword(password);
}

/**
 * Replaces a person's password with one from `newPasswordHash`, in the caller's transaction, and ends every session
 * signed in with the old one (committed together); false when no such person.
 */
export async function setPasswordHash(tx: Tx, userId: string, passwordHash: string): Promise<boolean> {
  if ((await tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).returning({ id: users.id })).length === 0) return false;
  await endUserSessions(tx, userId, "password-changed");
  return true;
}

/** Sets a new password for the person with this address (the operator's reset); their sessions end. */
export async function resetPassword(email: string, password: string): Promise<{ email: string }> {
  const passwordHash = await newPasswordHash(password, email);
  const normalised = normaliseEmail(email);
  const done = await write(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, normalised));
    if (!user || !(await setPasswordHash(tx, user.id, passwordHash))) return false;
    await noticeUser(tx, user.id, "Your Owo password was changed by this Owo's operator", UNKNOWN_ORIGIN);
    return true;
  });
  if (!done) throw new ApiError("S404", `No user with e-mail ${normalised}`);
  return { email: normalised };
}
