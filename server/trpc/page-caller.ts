// Server components reach the core through the tRPC server caller, with the session from Next's cookies.
import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import type { UserCaller } from "../auth/caller";
import { currentSession, parseCookies, userCaller } from "../auth/callers";
import { createCaller } from "./root";

/**
 * Built once per request (React `cache`), as create-t3-app does: the layout and the page each ask for it, and the
 * session is decoded and the membership read only once.
 */
export const pageCaller = cache(async (): Promise<{ caller: UserCaller | null; api: ReturnType<typeof createCaller> }> => {
  const jar = await cookies();
  const map = parseCookies(
    jar
      .getAll()
      .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
      .join("; "),
  );
  const session = await currentSession(map);
  const caller = session ? await userCaller(session.userId, map, session.sessionId) : null;
  return { caller, api: createCaller({ caller, authError: null, requestId: "page", ip: null, setHeader: () => undefined }) };
});

/**
 * A dashboard page's caller. A visitor whose session has ended is sent to sign in, and back to the page after; a member
 * of a team that requires two factors, to set them up first. Next renders a layout and its page at once, so each asks
 * here: a page that asked the core anyway would throw for nobody and log an error for every session that ended.
 */
export async function signedInPage(): Promise<{ caller: UserCaller; api: ReturnType<typeof createCaller> }> {
  const { caller, api } = await pageCaller();
  const path = (await headers()).get("x-owo-path") ?? "/dashboard";
  if (!caller) redirect(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  if (caller.mustEnrolTwoFactor && !path.startsWith("/account")) redirect("/account?two-factor=required");
  return { caller, api };
}
