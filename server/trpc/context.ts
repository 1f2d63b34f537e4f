// Builds the tRPC context from a Node request: bearer token, or the dashboard session cookie.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "../api-error";
import { callerFromAuthorization } from "../auth/access-tokens";
import { parseCookies, currentSession, userCaller } from "../auth/callers";
import { clientIp } from "../http/request-body";
import { fromOwnOrigin } from "../http/same-origin";
import { settings } from "../settings";
import type { Context } from "./init";

export async function contextFromRequest(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<Context> {
  const setHeader = (k: string, v: string) => {
    if (!res.headersSent) res.setHeader(k, v);
  };
  const base = { requestId, ip: clientIp(req, settings().trustProxy), setHeader };
  if (req.headers.authorization) {
    try {
      return { ...base, caller: await callerFromAuthorization(req.headers.authorization), authError: null };
    } catch (e) {
      return { ...base, caller: null, authError: e instanceof ApiError ? e : new ApiError("S1", "Invalid access token") };
    }
  }
  const cookies = parseCookies(req.headers.cookie);
  const session = await currentSession(cookies);
  if (!session) return { ...base, caller: null, authError: null };
  // A cookie-authenticated mutation must come from our own pages.
  if (req.method !== "GET" && !fromOwnOrigin(req)) {
    return { ...base, caller: null, authError: new ApiError("S3", "Cross-site request refused: send it from the dashboard's own origin") };
  }
  return { ...base, caller: await userCaller(session.userId, cookies, session.sessionId), authError: null };
}
