// The Sessions page's rules: a person sees their own live sessions (device, address, first and last seen) and ends
// one, or all but the one they are using; each ending lands in their teams' audit logs.
import { shownAddress } from "../client-address";
import { write } from "../../db/client";
import { ApiError } from "../api-error";
import { listSessions, revokeAllSessions, revokeSession } from "../auth/sessions";
import { clock } from "../clock";
import { recordAccountAudit } from "../team/audit";

export type SignedInSession = {
  id: string;
  device: string;
  userAgent: string;
  ip: string;
  firstSeen: string;
  lastSeen: string;
  current: boolean;
};

/** "Chrome on Windows": enough to tell one's own devices apart; the full User-Agent is shown beside it. */
export function deviceName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}

export async function sessionsOf(userId: string, currentSessionId: string | null, now = clock.now()): Promise<SignedInSession[]> {
  return (await listSessions(userId, now)).map((s) => ({
    id: s.id,
    device: deviceName(s.userAgent),
    userAgent: s.userAgent,
    ip: shownAddress(s.ip),
    firstSeen: new Date(s.createdAt).toISOString(),
    lastSeen: new Date(s.lastSeenAt).toISOString(),
    current: s.id === currentSessionId,
  }));
}

/** "Sign out this session": one of the person's own sessions ends at once, on every instance within OWO_REVOCATION_SECONDS. */
export async function signOutSession(userId: string, sessionId: string): Promise<{ ended: string }> {
  if (!(await revokeSession(userId, sessionId))) throw new ApiError("S404", "No such live session of yours");
  await write(async (tx) => recordAccountAudit(tx, userId, "account.endSession", { session: sessionId.slice(0, 12) }));
  return { ended: sessionId };
}

/** "Sign out everywhere else": every session of the person but the one asking. */
export async function signOutEverywhereElse(userId: string, currentSessionId: string | null): Promise<{ ended: number }> {
  if (!currentSessionId) throw new ApiError("S1", "Sign in again");
  const ended = await revokeAllSessions(userId, { keep: currentSessionId });
  await write(async (tx) => recordAccountAudit(tx, userId, "account.endOtherSessions", { ended }));
  return { ended };
}
