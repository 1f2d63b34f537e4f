// Invites: a link mailed to the invitee (or copied by the inviter; token stored hashed, 7 days); signing up or signing in through it joins the team.
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { db, write, type Tx } from "../../db/client";
import { invites, memberships, merchants, users, type Role } from "../../db/schema";
import { ApiError, invalidFields } from "../api-error";
import { inviteLetter, verifyEmailLetter } from "../mail/letters";
import { queueMail } from "../mail/outbox";
import { newId } from "../identifiers";
import { sha256 } from "../auth/token-hash";
import { merchantFieldErrors } from "../merchants/create-merchant";
import { refuseUnofferedSignUp } from "../merchants/sign-up";
import { settings } from "../settings";
import { issueVerificationUrl } from "../users/email-verification";
import { refuseRegisteredAddress, registeredAddressRefusal } from "../users/registered-address";
import { EMAIL_RULE, normaliseEmail } from "../mail/addresses";
import { insertUser, prepareUser } from "../users/users";
import { recordAudit } from "./audit";
import { assertMayGrant, mayGrant, ROLES, type Actor } from "./members";
import { clock } from "../clock";

const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;
const NOT_VALID = "This invite link is not valid: it was used, withdrawn or has expired. Ask for a new one.";

export const inviteInput = z.object({
  role: z.enum(ROLES, { error: "must be owner, admin, developer or viewer" }),
  /** Optional: when given, only that address can use the link. */
  email: z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" ? normaliseEmail(v) : v),
    z.email({ error: EMAIL_RULE }).max(254).optional(),
  ),
});

export type InviteView = { id: string; role: Role; email: string | null; invitedBy: string; createdAt: string; expiresAt: string };

export function inviteUrl(token: string): string {
  return `${settings().publicUrl}/signup?invite=${encodeURIComponent(token)}`;
}

/** The token is in the answer once (inside `url`); only its hash is kept. */
export async function createInvite(merchantId: string, actor: Actor, input: z.output<typeof inviteInput>, now = clock.now()) {
  assertMayGrant(actor, input.role);
  const token = `inv_${randomBytes(24).toString("base64url")}`;
  const id = newId("inv");
  const expiresAt = now + INVITE_TTL_MS;
  const url = inviteUrl(token);
  const mailed = await write(async (tx) => {
    await tx.insert(invites).values({
      id,
      merchantId,
      role: input.role,
      tokenHash: sha256(token),
      email: input.email ?? null,
      createdBy: actor.userId,
      createdAt: now,
      expiresAt,
    });
    if (!input.email) return false;
    const [merchant] = await tx.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, merchantId));
    const [inviter] = await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, actor.userId));
    const letter = inviteLetter({
      merchantName: merchant?.name ?? "a team",
      role: input.role,
      invitedBy: inviter && inviter.name !== inviter.email ? `${inviter.name} (${inviter.email})` : (inviter?.email ?? "Someone"),
      url,
      expiresAt: new Date(expiresAt).toUTCString(),
    });
    await queueMail(tx, { to: input.email, merchantId }, letter, now);
    return true;
  });
  return { id, role: input.role, email: input.email ?? null, url, mailed, expiresAt: new Date(expiresAt).toISOString() };
}

export async function listInvites(merchantId: string, now = clock.now()): Promise<InviteView[]> {
  return (
    await db()
      .select({
        id: invites.id,
        role: invites.role,
        email: invites.email,
        invitedBy: users.email,
        createdAt: invites.createdAt,
        expiresAt: invites.expiresAt,
      })
      .from(invites)
      .innerJoin(users, eq(users.id, invites.createdBy))
      .where(and(eq(invites.merchantId, merchantId), isNull(invites.acceptedAt), gt(invites.expiresAt, now)))
      .orderBy(asc(invites.createdAt))
  ).map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString(), expiresAt: new Date(r.expiresAt).toISOString() }));
}

/** Withdrawing ends the link's life now; the row stays as a record of who was invited. */
export async function withdrawInvite(merchantId: string, id: string, now = clock.now()): Promise<{ withdrawn: string }> {
  const changed = await write(async (tx) =>
    tx
      .update(invites)
      .set({ expiresAt: now })
      .where(and(eq(invites.id, id), eq(invites.merchantId, merchantId), isNull(invites.acceptedAt), gt(invites.expiresAt, now)))
      .returning({ id: invites.id }),
  );
  if (changed.length === 0) throw new ApiError("S404", "No open invite with this id");
  return { withdrawn: id };
}

async function openInvite(tx: Pick<Tx, "select">, token: string, now: number) {
  const [found] = await tx
    .select({ invite: invites, merchantName: merchants.name })
    .from(invites)
    .innerJoin(merchants, eq(merchants.id, invites.merchantId))
    .where(eq(invites.tokenHash, sha256(token)));
  if (!found || found.invite.acceptedAt !== null || found.invite.expiresAt <= now) throw new ApiError("S404", NOT_VALID);
  return found;
}

/** What the sign-up page shows about an invite before anyone accepts it. */
export async function inviteByToken(token: string, now = clock.now()) {
  const { invite, merchantName } = await openInvite(db(), token, now);
  return { merchantName, role: invite.role, email: invite.email, expiresAt: new Date(invite.expiresAt).toISOString() };
}

/**
 * Joins `userId` to the invite's merchant with its role and uses the invite up, in the caller's transaction. The
 * invite grants on its maker's authority, checked now: a maker since removed or demoted grants nothing. Using the link
 * proves nothing about the address (the inviter was handed the link too), so it is confirmed the normal way.
 */
async function claimInvite(tx: Tx, token: string, userId: string, email: string, now: number) {
  const { invite, merchantName } = await openInvite(tx, token, now);
  if (invite.email !== null && invite.email !== email) {
    throw new ApiError("S3", `This invite is for ${invite.email}; sign in or sign up with that address`, [
      { field: "email", message: `must be ${invite.email}, the address this invite was made for` },
    ]);
  }
  const [maker] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, invite.createdBy), eq(memberships.merchantId, invite.merchantId)));
  if (!mayGrant(maker?.role ?? null, invite.role)) throw new ApiError("S404", NOT_VALID);
  const [already] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.merchantId, invite.merchantId)));
  if (already) throw new ApiError("S14", `You are already on ${merchantName}'s team (as ${already.role})`);
  await tx.insert(memberships).values({ userId, merchantId: invite.merchantId, role: invite.role, createdAt: now });
  await tx.update(invites).set({ acceptedAt: now, acceptedBy: userId }).where(eq(invites.id, invite.id));
  await recordAudit(
    { merchantId: invite.merchantId, userId, action: "team.acceptInvite", input: { id: invite.id, role: invite.role }, now },
    tx,
  );
  return { merchantId: invite.merchantId, merchantName, role: invite.role };
}

export type JoinRequest = { name: string; email: string; password: string; invite: string };

/** Sign-up through an invite: a new person, no new merchant. */
export async function joinByInvite(input: JoinRequest, now = clock.now()) {
  refuseUnofferedSignUp("invite");
  const errors = merchantFieldErrors(input);
  if (errors.length) throw invalidFields(errors);
  await openInvite(db(), input.invite, now); // fail fast, before the deliberately slow password hash
  const person = await prepareUser(input);
  await refuseRegisteredAddress(person.email, now);
  return write(async (tx) => {
    const userId = await insertUser(tx, person, registeredAddressRefusal, now);
    const joined = await claimInvite(tx, input.invite, userId, person.email, now);
    await queueMail(tx, { to: person.email, userId }, verifyEmailLetter({ verifyUrl: await issueVerificationUrl(tx, userId, now) }), now);
    return { userId, ...joined };
  });
}

/** A signed-in person accepts an invite to another (or their first) team. */
export function acceptInvite(token: string, userId: string, now = clock.now()) {
  return write(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) throw new ApiError("S1", "Sign in again to accept this invite");
    return claimInvite(tx, token, userId, user.email, now);
  });
}
