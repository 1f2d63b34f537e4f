// Headers every response carries; the CSP is the one the pages actually pass.
import type { IncomingMessage, ServerResponse } from "node:http";
import { settings } from "../settings";

const CSP = [
  "default-src 'self'",
  // Next's App Router streams inline bootstrap scripts; without 'unsafe-inline' the pages do not hydrate.
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

export function securityHeaders(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("Content-Security-Policy", CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  const https =
    (req.socket as { encrypted?: boolean }).encrypted || (settings().trustProxy && req.headers["x-forwarded-proto"] === "https");
  if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}
