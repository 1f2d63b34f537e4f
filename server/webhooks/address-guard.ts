// Outbound-URL guard: callbacks never reach loopback, private, link-local or otherwise non-public
// addresses (API.md "Callbacks"). Judged on the resolved addresses at connect time, so a DNS answer
// that changes between a check and the connection (rebinding) cannot slip through.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP, type LookupFunction } from "node:net";

type Rule = { base: bigint; prefix: number; what: string };

const V4_BITS = 32;
const V6_BITS = 128;

function v4ToBigInt(ip: string): bigint {
  return ip.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function bigIntToV4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 0xffn)).join(".");
}

/** Parses a valid IPv6 text (zone id stripped, trailing dotted quad allowed) to its 128 bits. */
function v6ToBigInt(ip: string): bigint {
  let text = ip.split("%")[0] ?? "";
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const v4 = v4ToBigInt(dotted);
    text = `${text.slice(0, -dotted.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n);
}

function rule(cidr: string, what: string): Rule {
  const [net = "", prefix = ""] = cidr.split("/");
  const base = isIP(net) === 4 ? v4ToBigInt(net) : v6ToBigInt(net);
  return { base, prefix: Number(prefix), what };
}

function matches(rules: readonly Rule[], bits: number, value: bigint): Rule | undefined {
  return rules.find((r) => value >> BigInt(bits - r.prefix) === r.base >> BigInt(bits - r.prefix));
}

// Most specific first: the first match names the reason shown to the merchant.
const V4_REFUSED: readonly Rule[] = [
  rule("255.255.255.255/32", "the broadcast address"),
  rule("0.0.0.0/8", "a 'this network' address (0.0.0.0/8)"),
  rule("10.0.0.0/8", "a private address (RFC 1918)"),
  rule("100.64.0.0/10", "a carrier-grade NAT address (100.64.0.0/10)"),
  rule("127.0.0.0/8", "a loopback address"),
  rule("169.254.0.0/16", "a link-local address (cloud metadata lives here)"),
  rule("172.16.0.0/12", "a private address (RFC 1918)"),
  rule("192.0.0.0/24", "an IETF protocol assignment (192.0.0.0/24)"),
  rule("192.0.2.0/24", "a documentation address (TEST-NET-1)"),
  rule("192.88.99.0/24", "a deprecated 6to4 relay address"),
  rule("192.168.0.0/16", "a private address (RFC 1918)"),
  rule("198.18.0.0/15", "a benchmarking address (198.18.0.0/15)"),
  rule("198.51.100.0/24", "a documentation address (TEST-NET-2)"),
  rule("203.0.113.0/24", "a documentation address (TEST-NET-3)"),
  rule("224.0.0.0/4", "a multicast address"),
  rule("240.0.0.0/4", "a reserved address (240.0.0.0/4)"),
];

// Ranges that carry an IPv4 address inside: judged by that address, since traffic lands there.
const V6_EMBEDDING: readonly { rule: Rule; extract: (n: bigint) => bigint }[] = [
  { rule: rule("::ffff:0:0/96", "IPv4-mapped"), extract: (n) => n & 0xffffffffn },
  { rule: rule("64:ff9b::/96", "NAT64"), extract: (n) => n & 0xffffffffn },
  { rule: rule("2002::/16", "6to4"), extract: (n) => (n >> 80n) & 0xffffffffn },
];

const V6_REFUSED: readonly Rule[] = [
  rule("::/128", "the unspecified address"),
  rule("::1/128", "a loopback address"),
  rule("::/96", "a deprecated IPv4-compatible address"),
  rule("64:ff9b:1::/48", "a local-use NAT64 address"),
  rule("100::/64", "a discard-only address"),
  rule("2001:db8::/32", "a documentation address (2001:db8::/32)"),
  rule("2001::/23", "an IETF protocol assignment (2001::/23, Teredo included)"),
  rule("3fff::/20", "a documentation address (3fff::/20)"),
  rule("fc00::/7", "a unique-local address (fc00::/7)"),
  rule("fe80::/10", "a link-local address"),
  rule("fec0::/10", "a deprecated site-local address"),
  rule("ff00::/8", "a multicast address"),
];

// Everything outside 2000::/3 is unallocated or special today; refusing it keeps the list short.
const V6_GLOBAL_UNICAST = rule("2000::/3", "global unicast");

/** Why an address may not receive callbacks, or null when it is public. */
export function refusalReason(ip: string): string | null {
  const family = isIP(ip.split("%")[0] ?? "");
  if (family === 4) return matches(V4_REFUSED, V4_BITS, v4ToBigInt(ip))?.what ?? null;
  if (family !== 6) return "not an IP address";
  const value = v6ToBigInt(ip);
  for (const { rule: r, extract } of V6_EMBEDDING) {
    if (!matches([r], V6_BITS, value)) continue;
    const inner = bigIntToV4(extract(value));
    const innerReason = refusalReason(inner);
    return innerReason === null ? null : `${r.what} ${inner}, ${innerReason}`;
  }
  const refused = matches(V6_REFUSED, V6_BITS, value);
  if (refused) return refused.what;
  return matches([V6_GLOBAL_UNICAST], V6_BITS, value) ? null : "outside the global unicast range 2000::/3";
}

export function isPublicAddress(ip: string): boolean {
  return refusalReason(ip) === null;
}

export type UrlShape = { ok: true; url: URL } | { ok: false; reason: string };

/** The URL alone, before any DNS: scheme, credentials, host. Says nothing about where it points. */
export function checkUrlShape(url: string): UrlShape {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { ok: false, reason: `scheme ${parsed.protocol.replace(/:$/, "")} is not allowed (http or https only)` };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return { ok: false, reason: "credentials in the URL are not allowed" };
  }
  if (hostOf(parsed) === "") return { ok: false, reason: "the URL has no host" };
  return { ok: true, url: parsed };
}

/** The host as a socket wants it: IPv6 without brackets, no trailing root dot. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

/**
 * Shape plus what can be judged without DNS: Node connects to an IP literal without calling
 * `lookup`, so literals must be refused here; localhost names always mean loopback (RFC 6761).
 */
export function checkDestination(url: string, allowPrivate: boolean): UrlShape {
  const shape = checkUrlShape(url);
  if (!shape.ok || allowPrivate) return shape;
  const host = hostOf(shape.url).toLowerCase();
  if (isIP(host) !== 0) {
    const reason = refusalReason(host);
    if (reason !== null) return { ok: false, reason: `refused: ${host} is ${reason}` };
  } else if (host === "localhost" || host.endsWith(".localhost")) {
    return { ok: false, reason: `refused: ${host} is a loopback name` };
  }
  return shape;
}

export class AddressRefusedError extends Error {
  readonly code = "ERR_OWO_ADDRESS_REFUSED";
}

/**
 * A `lookup` for http.request / net.connect: resolves every address and refuses the connection
 * if any one is not public, because the socket may use any of them (and happy-eyeballs tries several).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const resolveOptions: LookupOptions & { all: true } = { ...options, all: true };
    dnsLookup(hostname, resolveOptions, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err, options.all ? [] : "");
      if (!allowPrivate) {
        for (const { address } of addresses) {
          const reason = refusalReason(address);
          if (reason !== null) {
            const said = address === hostname ? address : `${hostname} resolves to ${address}, which`;
            return callback(new AddressRefusedError(`refused: ${said} is ${reason}`), options.all ? [] : "");
          }
        }
      }
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), options.all ? [] : "");
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}
