// The REST door: API.md's order of checks, then one service call per route.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "../api-error";
import { callerFromAuthorization, type MachineCaller } from "../auth/access-tokens";
import { limitIp, limitNotices, limitMerchant } from "../limits/rate-limits";
import { scopeOf, type Scope } from "../merchants/scope";
import { settings } from "../settings";
import { nameRequest, restTemplate } from "../metrics/request-names";
import { sendError, sendJson } from "./envelope";
import { checkDeclaredLength, clientIp, isJsonContentType, parseJson, readBody } from "./request-body";

export type RestRequest = {
  req: IncomingMessage;
  params: Record<string, string>;
  /** The URL's query string, each name's last value. */
  query: Record<string, string>;
  caller: MachineCaller;
  /** The token's merchant and mode, what the services take. */
  scope: Scope;
  json: unknown;
  raw: Buffer;
  requestId: string;
};

export type RestAnswer = { status?: number; json: string; headers?: Record<string, string> };

export type RestRoute = {
  method: "GET" | "POST";
  pattern: RegExp;
  /** token: bearer token and merchant rate limit; ip: per-IP limit, no token; notices: a provider account's notice
   * door, limited per account and per IP; open: none of these. */
  access: "token" | "ip" | "notices" | "open";
  body: "none" | "json" | "raw";
  run(r: RestRequest): RestAnswer | Promise<RestAnswer>;
};

const NO_CALLER = { kind: "machine", merchantId: "", mode: "test", publicKey: "" } as const satisfies MachineCaller;

function match(routes: RestRoute[], path: string, method: string) {
  const onPath = routes.map((route) => ({ route, m: route.pattern.exec(path) })).filter((x) => x.m !== null);
  if (onPath.length === 0) throw new ApiError("S404", `No such endpoint: ${path}`);
  const hit = onPath.find((x) => x.route.method === method);
  if (!hit) {
    const allow = [...new Set(onPath.map((x) => x.route.method))].join(", ");
    throw new ApiError("S405", `Method ${method} not allowed on ${path}; use ${allow}`, [], { Allow: allow });
  }
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(hit.m?.groups ?? {})) {
    try {
      params[k] = decodeURIComponent(v);
    } catch {
      throw new ApiError("S404", `No such endpoint: ${path}`);
    }
  }
  return { route: hit.route, params };
}

export async function serveRest(routes: RestRoute[], req: IncomingMessage, res: ServerResponse, path: string, requestId: string) {
  let limitHeaders: Record<string, string> = {};
  try {
    const { route, params } = match(routes, path, req.method ?? "GET");
    nameRequest(res, "rest", restTemplate(route.pattern));
    if (route.body !== "none") checkDeclaredLength(req);
    let caller: MachineCaller = NO_CALLER;
    if (route.access === "token") {
      // The limit is per merchant, so the token is looked up first; a bad token still answers 401 after 429.
      let tokenError: unknown = null;
      try {
        caller = await callerFromAuthorization(req.headers.authorization);
      } catch (e) {
        tokenError = e;
      }
      if (!tokenError) limitHeaders = await limitMerchant(caller.merchantId, caller.mode);
      if (tokenError) throw tokenError;
    } else if (route.access === "ip") {
      limitHeaders = await limitIp(clientIp(req, settings().trustProxy));
    } else if (route.access === "notices") {
      limitHeaders = await limitNotices(params.providerId ?? "", clientIp(req, settings().trustProxy));
    }
    let raw: Buffer = Buffer.alloc(0);
    let json: unknown = undefined;
    if (route.body !== "none") {
      if (!isJsonContentType(req)) throw new ApiError("S415", "Content-Type must be application/json");
      raw = await readBody(req);
      if (route.body === "json") json = parseJson(raw);
    }
    const query = Object.fromEntries(new URL(req.url ?? "", "http://owo.invalid").searchParams);
    const answer = await route.run({ req, params, query, caller, scope: scopeOf(caller), json, raw, requestId });
    sendJson(res, answer.status ?? 200, answer.json, { ...limitHeaders, ...answer.headers });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    for (const [k, v] of Object.entries(limitHeaders)) res.setHeader(k, v);
    sendError(res, err);
  }
}
