// Server components reach the core through the tRPC server caller, with the session from Next's cookies.
import "server-only";
import { cookies } from "next/headers";
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
