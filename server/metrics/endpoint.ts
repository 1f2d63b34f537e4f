// GET /metrics: Prometheus's text format. With OWO_METRICS_TOKEN set, only that bearer token reads it; unset, only
// loopback clients do. Every address a request names — the socket's and each forwarded one — must be loopback, so a
// forged X-Forwarded-For cannot borrow loopback and a proxy on the same host does not make the page public.
import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "../api-error";
import { sendError } from "../http/envelope";
import { log } from "../logger";
import { settings } from "../settings";
import { registerDatabaseGauges } from "./from-database";
import { series } from "./series";

/** "127.0.0.1", "127.0.0.1:5000", "::1", "[::1]:5000", "::ffff:127.0.0.1" are loopback; "unknown" or "" are not. */
function isLoopback(address: string): boolean {
  let a = address.trim();
  if (a.startsWith("[")) a = a.slice(1, a.indexOf("]"));
  else if (a.split(":").length === 2) a = a.slice(0, a.indexOf(":"));
  return a === "::1" || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(a);
}

/** The client addresses a request names: its socket, then whatever a proxy (or the client itself) forwarded. */
function namedAddresses(req: IncomingMessage): string[] {
  const named = [req.socket.remoteAddress ?? ""];
  const header = (name: string) => [req.headers[name]].flat().filter((v): v is string => typeof v === "string");
  for (const v of header("x-forwarded-for")) named.push(...v.split(","));
  for (const v of header("x-real-ip")) named.push(v);
  for (const v of header("forwarded")) for (const m of v.matchAll(/for="?([^;,"]+)/gi)) named.push(m[1] ?? "");
  return named;
}

const digest = (s: string) => createHash("sha256").update(s).digest();

function tokenMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token));
}

export async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return sendError(res, new ApiError("S405", `Method ${req.method} not allowed on /metrics; use GET`, [], { Allow: "GET" }));
  }
  const token = settings().metricsToken;
  if (token !== null) {
    if (!tokenMatches(req.headers.authorization, token)) {
      return sendError(res, new ApiError("S1", "GET /metrics needs Authorization: Bearer <OWO_METRICS_TOKEN>"));
    }
  } else if (!namedAddresses(req).every(isLoopback)) {
    return sendError(res, new ApiError("S3", "/metrics answers loopback clients only; set OWO_METRICS_TOKEN to read it from elsewhere"));
  }
  registerDatabaseGauges();
  const { registry } = series();
  let text: string;
  try {
    text = await registry.metrics();
  } catch (err) {
    log.warn({ err }, "metrics: a gauge could not be read");
    return sendError(res, new ApiError("S500", "Metrics could not be read now"));
  }
  res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : text);
}
