// Whether a request that changes something was sent by one of Owo's own pages: its Origin is Owo's host as the
// request reached it, or the public URL's (behind a proxy that rewrites Host).
import type { IncomingMessage } from "node:http";
import { settings } from "../settings";

export function fromOwnOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    const host = new URL(origin).host;
    return host === req.headers.host || host === new URL(settings().publicUrl).host;
  } catch {
    // "null" (a sandboxed frame, a privacy redirect) or anything unreadable is no origin of ours.
    return false;
  }
}
