// Security notices: every password, two-factor and key change, and every sign-in from a new browser, is mailed.
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { memberships, merchants, users } from "../../db/schema";
import { clock } from "../clock";
import { securityNoticeLetter, type Circumstances } from "../mail/letters";
import { queueMail } from "../mail/outbox";
import { settings } from "../settings";

/** Where a request came from, as far as Owo knows it (the front's client address, the browser's own description). */
export type Origin = { ip: string | null; userAgent: string | null; /** Who did it, in words for the mail. */ by?: string | null };
export const UNKNOWN_ORIGIN: Origin = { ip: null, userAgent: null };
/** Changes made with the operator CLI on the server itself. */
export const OPERATOR_ORIGIN: Origin = { ip: null, userAgent: null, by: "this Owo's operator, with its command line" };

export function circumstances(origin: Origin, now = clock.now()): Circumstances {
  return {
    at: `${new Date(now).toUTCString()}`,
    ip: origin.ip,
    device: origin.userAgent ? origin.userAgent.slice(0, 160) : null,
    by: origin.by ?? null,
  };
}

export const accountUrl = () => `${settings().publicUrl}/account`;

/** Tells the person about a change to their own account, in the transaction that made it. */
export async function noticeUser(tx: Tx, userId: string, what: string, origin: Origin, now = clock.now()): Promise<void> {
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) return;
  await queueMail(
    tx,
    { to: user.email, userId },
    securityNoticeLetter({ ...circumstances(origin, now), what, securityUrl: accountUrl() }),
    now,
  );
}

/** Tells every owner of the merchant about a change to its keys, in the transaction that made it. */
export async function noticeOwners(
  tx: Tx,
  merchantId: string,
  what: (merchantName: string) => string,
  origin: Origin,
  now = clock.now(),
): Promise<void> {
  const owners = await tx
    .select({ userId: users.id, email: users.email, merchantName: merchants.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(merchants, eq(merchants.id, memberships.merchantId))
    .where(and(eq(memberships.merchantId, merchantId), eq(memberships.role, "owner")));
  for (const o of owners) {
    const letter = securityNoticeLetter({
      ...circumstances(origin, now),
      what: what(o.merchantName),
      securityUrl: `${settings().publicUrl}/developers`,
    });
    await queueMail(tx, { to: o.email, userId: o.userId, merchantId }, letter, now);
  }
}
