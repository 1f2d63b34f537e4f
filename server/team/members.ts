// A merchant's team: who belongs with which role; changing roles and removing people, never the last owner.
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { invites, memberships, users, type Role } from "../../db/schema";
import { clock } from "../clock";
import { ApiError } from "../api-error";
import { can } from "../auth/permissions";

export const ROLES = ["owner", "admin", "developer", "viewer"] as const satisfies readonly Role[];

/** The signed-in person acting, with their role in the merchant acted on. */
export type Actor = { userId: string; role: Role };

export type Member = { userId: string; email: string; name: string; role: Role; joinedAt: string };

export async function listMembers(merchantId: string): Promise<Member[]> {
  return (
    await db()
      .select({ userId: users.id, email: users.email, name: users.name, role: memberships.role, createdAt: memberships.createdAt })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.merchantId, merchantId))
      .orderBy(asc(memberships.createdAt))
  ).map((r) => ({ userId: r.userId, email: r.email, name: r.name, role: r.role, joinedAt: new Date(r.createdAt).toISOString() }));
}

function assertManager(actor: Actor): void {
  if (!can({ kind: "user", role: actor.role }, "team.changeAccess"))
    throw new ApiError("S3", `Your role (${actor.role}) may not manage the team; it needs owner or admin`);
}

/** Owners and admins manage the team, but only an owner may make an owner or change an owner's place. */
export function mayGrant(granter: Role | null, role: Role): boolean {
  if (granter === null || !can({ kind: "user", role: granter }, "team.changeAccess")) return false;
  return role !== "owner" || can({ kind: "user", role: granter }, "team.grantOwner");
}

export function assertMayGrant(actor: Actor, role: Role): void {
  assertManager(actor);
  if (!mayGrant(actor.role, role)) throw new ApiError("S3", "Only an owner may make someone an owner");
}

/**
 * An open invite grants its role on its maker's authority: when the maker is removed or demoted, the invites they
 * may no longer grant are withdrawn with them (in the same transaction), so a link made earlier cannot bring them back.
 */
async function withdrawInvitesBeyond(tx: Tx, merchantId: string, userId: string, role: Role | null, now: number): Promise<void> {
  const open = await tx
    .select({ id: invites.id, role: invites.role })
    .from(invites)
    .where(and(eq(invites.merchantId, merchantId), eq(invites.createdBy, userId), isNull(invites.acceptedAt), gt(invites.expiresAt, now)));
  const beyond = open.filter((i) => !mayGrant(role, i.role)).map((i) => i.id);
  if (beyond.length) await tx.update(invites).set({ expiresAt: now }).where(inArray(invites.id, beyond));
}

async function membership(tx: Tx, merchantId: string, userId: string) {
  const [row] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId)));
  if (!row) throw new ApiError("S404", "No such member in this team");
  return row;
}

/** A merchant always keeps an owner: someone must be able to manage keys, team and money. */
async function assertNotLastOwner(tx: Tx, merchantId: string, verb: string): Promise<void> {
  const [owners] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(memberships)
    .where(and(eq(memberships.merchantId, merchantId), eq(memberships.role, "owner")));
  if ((owners?.n ?? 0) <= 1) throw new ApiError("S3", `The last owner cannot be ${verb}; make someone else an owner first`);
}

export async function changeRole(merchantId: string, actor: Actor, userId: string, role: Role, now = clock.now()): Promise<Member> {
  assertMayGrant(actor, role);
  await write(async (tx) => {
    const current = await membership(tx, merchantId, userId);
    if (current.role === role) return;
    if (current.role === "owner") {
      assertMayGrant(actor, "owner");
      await assertNotLastOwner(tx, merchantId, "demoted");
    }
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId)));
    await withdrawInvitesBeyond(tx, merchantId, userId, role, now);
  });
  const member = (await listMembers(merchantId)).find((m) => m.userId === userId);
  if (!member) throw new ApiError("S404", "No such member in this team");
  return member;
}

/** The person's account stays (they may belong to other merchants); their access here ends at once. */
export async function removeMember(merchantId: string, actor: Actor, userId: string, now = clock.now()): Promise<{ removed: string }> {
  assertManager(actor);
  await write(async (tx) => {
    const current = await membership(tx, merchantId, userId);
    if (current.role === "owner") {
      assertMayGrant(actor, "owner");
      await assertNotLastOwner(tx, merchantId, "removed");
    }
    await tx.delete(memberships).where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId)));
    await withdrawInvitesBeyond(tx, merchantId, userId, null, now);
  });
  return { removed: userId };
}
