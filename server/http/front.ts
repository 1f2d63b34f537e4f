// The Node HTTP front: answers the machine doors itself (REST, tRPC, health, readiness) and hands the rest to Next.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../api-error";
import { isMigrated, readiness } from "../../db/client";
import { log } from "../logger";
import { serveTrpc } from "../trpc/http";
import { canonicalPath } from "./canonical-path";
import { asApiError, errorJson, sendError, sendJson } from "./envelope";
import { limitIp } from "../limits/rate-limits";
import { settings } from "../settings";
import { answerable, closeAfterAnswer, trackInFlight } from "./in-flight";
import { CLIENT_IP_HEADER, clientIp } from "./request-body";
import { serveRest } from "./rest";
import { restRoutes } from "./rest-routes";
import { capConnectionsPerIp } from "./connection-cap";
import { redactedUrl } from "./redacted-url";
import { serveLogo } from "./logos";
import { securityHeaders } from "./security-headers";
import { serveMetrics } from "../metrics/endpoint";
import { servePaymentsExport } from "./payments-export";
import { ASSET_PREFIX } from "../checkout-page/assets";
import { serveCheckoutAsset, serveCheckoutPage } from "../checkout-page/page";
import { serveLinkDone, serveLinkPage } from "../checkout-page/link-page";
import { inRequestSpan } from "../traces";
import { countWhenFinished, nameRequest, pageRoute } from "../metrics/request-names";
import { trpcRoute } from "../trpc/route-label";

const ASSET_SEGMENT = ASSET_PREFIX.slice(1, -1);

/** The routes under /api/ that are Next route handlers (app/api/); the payments export is the front's own. */
const NEXT_API = ["/api/auth/", "/api/exports/"];

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/**
 * API.md: per-IP limits on sign-in, sign-up and the public pay pages, matched on the canonical path's segments.
 * Every request that is not a GET or HEAD is limited, whatever page it names: Next runs a server action posted to
 * any page (the sign-up form's, say, posted to /signin), so the path alone cannot say which form it is; the pay
 * form's POST to /pay/<slug> is one of these.
 */
function ipLimitedPage(method: string, [first, second]: string[]): boolean {
  if (method === "GET" || method === "HEAD") return (first === "pay" || first === "checkout") && second !== undefined;
  return true;
}

// Random bytes drawn from a pool, as crypto.randomUUID does: one call to the system's generator per 455 ids, not per request.
const ID_BYTES = 9;
let idPool = Buffer.alloc(0);
let idOffset = 0;

function newRequestId(): string {
  if (idOffset + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_BYTES * 455);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return `req_${idPool.toString("base64url", idOffset - ID_BYTES, idOffset)}`;
}

async function route(req: IncomingMessage, res: ServerResponse, pages: PageHandler | null, requestId: string) {
  const target = req.url ?? "/";
  const { path, segments } = canonicalPath(target);
  const queryAt = target.indexOf("?");
  const canonicalTarget = queryAt < 0 ? path : path + target.slice(queryAt);
  // Every door and Next's router see the spelling the limits were decided on.
  if (canonicalTarget !== target) req.url = canonicalTarget;
  if (path.startsWith("/api/v2/") || path.startsWith("/api/v3/") || path === "/api/v2" || path === "/api/v3") {
    nameRequest(res, "rest", "/api/{unmatched}");
    return serveRest(restRoutes, req, res, path, requestId);
  }
  if (path === "/api/trpc" || path.startsWith("/api/trpc/")) {
    nameRequest(res, "trpc", trpcRoute(path));
    return serveTrpc(req, res, requestId);
  }
  if (path === "/metrics") {
    nameRequest(res, "metrics", path);
    return serveMetrics(req, res);
  }
  if (path === "/api/health" || path === "/api/ready") nameRequest(res, "probe", path);
  if (path === "/api/health") {
    const ready = isMigrated();
    return sendJson(res, ready ? 200 : 503, JSON.stringify({ status: ready ? "ok" : "starting" }));
  }
  if (path === "/api/ready") return answerReadiness(res);
  if (segments[0] === "logos" && segments.length === 2) {
    nameRequest(res, "page", "/logos/{id}");
    return serveLogo(req.method ?? "GET", segments[1] ?? "", res);
  }
  if (path === "/api/exports/payments") {
    nameRequest(res, "api", path);
    return servePaymentsExport(req, res);
  }
  // API.md: every /api/ path Owo does not serve is the envelope's 404, never a page (Next serves only these two).
  if ((path === "/api" || path.startsWith("/api/")) && !NEXT_API.some((prefix) => path.startsWith(prefix))) {
    return sendError(res, new ApiError("S404", `No such endpoint: ${path}`));
  }
  // The hosted checkout and a payment link's customer pages are the front's own (server/checkout-page), served with
  // or without Next: a customer on 3G downloads a few KB of script instead of Next's runtime.
  const reading = req.method === "GET" || req.method === "HEAD";
  const checkout = reading && segments[0] === "checkout" && segments.length === 2 ? segments[1] : undefined;
  const [, slug, done] = segments[0] === "pay" ? segments : [];
  const payLink = (reading || req.method === "POST") && segments.length === 2 ? slug : undefined;
  const linkDone = reading && segments.length === 3 && done === "done" ? slug : undefined;
  nameRequest(res, "page", checkout !== undefined ? "/checkout" : pageRoute(segments));
  if (reading && segments[0] === ASSET_SEGMENT && (await serveCheckoutAsset(res, path))) return;
  const ip = clientIp(req, settings().trustProxy);
  if (ipLimitedPage(req.method ?? "GET", segments)) {
    for (const [k, v] of Object.entries(await limitIp(ip))) res.setHeader(k, v);
  }
  if (checkout !== undefined) return serveCheckoutPage(res, checkout);
  if (payLink !== undefined) return serveLinkPage(req, res, payLink);
  if (linkDone !== undefined) return serveLinkDone(res, linkDone, new URLSearchParams(queryAt < 0 ? "" : target.slice(queryAt + 1)));
  if (!pages) return sendError(res, new ApiError("S404", `No such page: ${path}`));
  // Pages that bounce a signed-out visitor to sign-in need the path they were asked for; sign-in needs the client IP
  // as Owo reckons it (lockout, the Sessions page). Both overwrite whatever the client sent under these names.
  req.headers["x-owo-path"] = req.url ?? "/";
  req.headers[CLIENT_IP_HEADER] = ip;
  return pages(req, res);
}

/** A load balancer's readiness check: 200 only while the database answers and its migrations are this build's. */
async function answerReadiness(res: ServerResponse): Promise<void> {
  let answer;
  try {
    const { current, dialect, version, migrations } = await readiness();
    answer = current
      ? { status: "ready", database: { dialect, version }, migrations }
      : { status: "not ready", reason: "migrations are not current", database: { dialect, version }, migrations };
  } catch (err) {
    log.warn({ err }, "readiness check: the database did not answer");
    answer = { status: "not ready", reason: "the database did not answer" };
  }
  sendJson(res, answer.status === "ready" ? 200 : 503, JSON.stringify(answer));
}

/** Requests Node's parser refuses (oversized headers or URL, broken HTTP) still get API.md's envelope. */
function answerMalformed(err: NodeJS.ErrnoException, socket: Duplex): void {
  const tooSlow = err.code === "ERR_HTTP_REQUEST_TIMEOUT";
  // A body still trickling in when the request timeout passes: its handler waits for the rest, so no answer is coming.
  if (tooSlow && !answerable(socket)) {
    socket.destroy();
    return;
  }
  if (!tooSlow && closeAfterAnswer(socket)) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const error = tooLarge
    ? new ApiError("S413", "Request headers or URL larger than 16 KiB")
    : new ApiError("S5", tooSlow ? "Request not received in time" : "Malformed HTTP request");
  const body = errorJson(error);
  const status = tooLarge ? "431 Request Header Fields Too Large" : tooSlow ? "408 Request Timeout" : "400 Bad Request";
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${newRequestId()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** How long one client may take; tests shorten them to watch a slow client being cut off. */
export type FrontTimeouts = { headersMs: number; requestMs: number; keepAliveMs: number };
const TIMEOUTS: FrontTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 };

export function createFront(pages: PageHandler | null, timeouts: FrontTimeouts = TIMEOUTS): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node checks both timeouts on this period; its default (30 s) would let a slow client stay that much longer.
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
    },
    (req, res) => {
      const requestId = newRequestId();
      res.setHeader("X-Request-Id", requestId);
      trackInFlight(req, res);
      securityHeaders(req, res);
      const started = process.hrtime.bigint();
      countWhenFinished(req, res, started);
      if (log.isLevelEnabled("info")) {
        res.on("finish", () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          log.info(
            { requestId, method: req.method, url: redactedUrl(req.url ?? "/"), status: res.statusCode, ms: Math.round(ms * 10) / 10 },
            "request",
          );
        });
      }
      inRequestSpan(req, res, requestId, async () => route(req, res, pages, requestId)).catch((err: unknown) => {
        // An ApiError is an answer (a page's rate limit, say), not a fault: only the unexpected is logged as one.
        if (!(err instanceof ApiError)) log.error({ err, requestId }, "unhandled request error");
        sendError(res, asApiError(err, requestId));
      });
    },
  );
  // Above the 60 s idle timeout of common load balancers, so they never reuse a connection Owo is closing.
  server.keepAliveTimeout = timeouts.keepAliveMs;
  capConnectionsPerIp(server, settings().maxConnectionsPerIp);
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => answerMalformed(err, socket));
  return server;
}
