// Who is calling: a machine with a bearer token, or a signed-in user acting for one merchant in one mode.
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { decode } from "next-auth/jwt";
import { db } from "../../db/client";
import { memberships, merchants, users, type Mode, type Role } from "../../db/schema";
import { settings } from "../settings";
import { hasConnectedProvider } from "../providers/accounts";
import type { UserCaller } from "./caller";
import { can } from "./permissions";
import { liveSessionUser } from "./sessions";

export const MERCHANT_COOKIE = "owo-merchant";
export const MODE_COOKIE = "owo-mode";
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      out[name] = part.slice(eq + 1).trim();
    }
  }
  return out;
}

export type CurrentSession = { userId: string; sessionId: string };

/** The signed-in person and their session, when the cookie names a session that is still alive (sessions.ts). */
export async function currentSession(cookies: Record<string, string>): Promise<CurrentSession | null> {
  const token = SESSION_COOKIES.map((n) => cookies[n]).find(Boolean);
  if (!token) return null;
  try {
    const jwt = await decode({ token, secret: settings().authSecret });
    if (typeof jwt?.sub !== "string" || typeof jwt.sid !== "string") return null;
    return (await liveSessionUser(jwt.sid)) === jwt.sub ? { userId: jwt.sub, sessionId: jwt.sid } : null;
  } catch {
    return null;
  }
}

export async function sessionUserId(cookies: Record<string, string>): Promise<string | null> {
  return (await currentSession(cookies))?.userId ?? null;
}

/** The merchant the user picked (cookie), else their first; mode from its cookie, test unless live was chosen. */
export async function userCaller(
  userId: string,
  cookies: Record<string, string>,
  sessionId: string | null = null,
): Promise<UserCaller | null> {
  const rows = await db()
    .select({
      merchantId: memberships.merchantId,
      role: memberships.role,
      merchantName: merchants.name,
      email: users.email,
      verifiedAt: users.emailVerifiedAt,
      teamRequiresTwoFactor: merchants.requireTwoFactor,
      twoFactorSince: users.totpEnabledAt,
    })
    .from(memberships)
    .innerJoin(merchants, eq(merchants.id, memberships.merchantId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt));
  const chosen = rows.find((r) => r.merchantId === cookies[MERCHANT_COOKIE]) ?? rows[0];
  if (!chosen) return null;
  const emailVerified = chosen.verifiedAt !== null;
  const mustEnrolTwoFactor = chosen.teamRequiresTwoFactor && chosen.twoFactorSince === null;
  const mayGoLive = can({ kind: "user", role: chosen.role, emailVerified, mustEnrolTwoFactor }, "mode.live");
  const liveAvailable = await hasConnectedProvider(chosen.merchantId);
  const mode: Mode = cookies[MODE_COOKIE] === "live" && liveAvailable && mayGoLive ? "live" : "test";
  return {
    kind: "user",
    userId,
    email: chosen.email,
    merchantId: chosen.merchantId,
    merchantName: chosen.merchantName,
    role: chosen.role,
    mode,
    emailVerified,
    liveAvailable,
    teamRequiresTwoFactor: chosen.teamRequiresTwoFactor,
    mustEnrolTwoFactor,
    sessionId,
  };
}

export async function merchantsOf(userId: string) {
  return db()
    .select({ merchantId: memberships.merchantId, role: memberships.role, name: merchants.name })
    .from(memberships)
    .innerJoin(merchants, eq(merchants.id, memberships.merchantId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt));
}

export async function roleIn(userId: string, merchantId: string): Promise<Role | null> {
  return (
    (
      await db()
        .select({ role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.userId, userId), eq(memberships.merchantId, merchantId)))
    )[0]?.role ?? null
  );
}
