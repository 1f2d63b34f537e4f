// Signed-in dashboard users for HTTP tests: a next-auth session cookie, and a typed tRPC client that sends it.
import { createTRPCClient, httpLink } from "@trpc/client";
import { encode } from "next-auth/jwt";
import superjson from "superjson";
import type { AppRouter } from "../trpc/root";
import type { Owo } from "./harness";
import { settings } from "../settings";
import { startSession } from "../auth/sessions";
import { createInvite, joinByInvite } from "../team/invites";
import { allMail } from "../mail/outbox";
import { verifyEmail } from "../users/email-verification";

/**
 * The cookie the browser would hold after signing in as `userId`: a session row started as sign-in starts one, and
 * the JWT naming it (call after startOwo: it reads the auth secret and the database).
 */
export async function sessionCookie(userId: string, extra: Record<string, string> = {}): Promise<string> {
  const { id } = await startSession(userId, { ip: "127.0.0.1", userAgent: "Owo test" });
  const token = await encode({ token: { sub: userId, sid: id }, secret: settings().authSecret });
  return [`next-auth.session-token=${token}`, ...Object.entries(extra).map(([k, v]) => `${k}=${v}`)].join("; ");
}

/** A tRPC client acting as the signed-in user; Origin is the dashboard's, as cookie mutations require. */
export async function userClient(owo: Owo, userId: string, extraCookies: Record<string, string> = {}) {
  const cookie = await sessionCookie(userId, extraCookies);
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${owo.url}/api/trpc`, transformer: superjson, headers: { cookie, origin: owo.url } })],
  });
}

let members = 0;
/** A new person on `owner`'s merchant with `role`, joined through an invite link as the sign-up page does. */
export async function joinAs(
  merchant: { merchantId: string; userId: string },
  role: "owner" | "admin" | "developer" | "viewer",
): Promise<string> {
  const invite = await createInvite(merchant.merchantId, { userId: merchant.userId, role: "owner" }, { role });
  const token = new URL(invite.url).searchParams.get("invite") ?? "";
  const email = `member${++members}.${process.pid}.${Date.now()}@example.com`;
  return (await joinByInvite({ name: `Member ${members}`, email, password: "long enough pw", invite: token })).userId;
}

/** Confirms `email` the normal way: the verification link Owo queued for it, opened. */
export async function confirmAddress(email: string): Promise<void> {
  const link = (await allMail({ to: email })).find((x) => x.kind === "verify_email")?.text.match(/token=([\w-]+)/)?.[1];
  if (!link) throw new Error(`no verification mail queued for ${email}`);
  await verifyEmail(link);
}
