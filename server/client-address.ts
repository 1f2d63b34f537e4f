// A client's address as people know it, wherever Owo records or shows one (sessions, security mail, rate limits).
import { isIPv4 } from "node:net";

/**
 * "::ffff:127.0.0.1" → "127.0.0.1": a listener on both IPv4 and IPv6 sees an IPv4 client as an IPv4-mapped IPv6
 * address; the person knows the IPv4 one. Any other address is shown as recorded.
 */
export function shownAddress(ip: string): string {
  const mapped = /^::ffff:(.+)$/i.exec(ip)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  return ip || "unknown";
}
