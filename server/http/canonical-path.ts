/**
 * One spelling per path. Next's router decodes `%63` and drops `/./` before it matches a page, so a limit decided
 * on the raw request line can be dodged by spelling the same page differently. The front rewrites every request to
 * this canonical form first: the limits, the doors and Next's router all see the same path.
 */

export type CanonicalPath = {
  /** Decoded segments, no empty ones: what routing and limits match on. */
  segments: string[];
  /** The path re-spelled from those segments (what the front hands on as the request's path). */
  path: string;
};

// Characters a path segment may carry unescaped (RFC 3986 pchar) that encodeURIComponent would escape anyway.
const PCHAR_KEPT = /%(21|24|26|27|28|29|2A|2B|2C|3B|3D|3A|40)/g;
// One character class, no nesting: linear on any input.
const PLAIN = /^\/[A-Za-z0-9_~!$&'()*+,;=:@./-]*$/;

function spell(segment: string): string {
  return encodeURIComponent(segment).replace(PCHAR_KEPT, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not UTF-8 once decoded (`%ff`): kept as the literal text, so the page it names simply does not exist.
    return segment;
  }
}

/** The request target's path (absolute-form targets included) in its one canonical spelling. */
export function canonicalPath(target: string): CanonicalPath {
  const rawPath = target.split("?", 1)[0] ?? "/";
  // Fast path: nothing to decode or resolve (no `%`, no `\`, no `//`, no segment starting with a dot).
  if (PLAIN.test(rawPath) && !rawPath.includes("/.") && !rawPath.includes("//")) {
    const segments = rawPath.split("/").filter(Boolean);
    return { segments, path: "/" + segments.join("/") };
  }
  let pathname: string;
  try {
    // As a browser (and Next) resolves it: `\` is `/`, `.`, `..`, `%2e` and `%2e%2e` segments are resolved.
    pathname = new URL(rawPath.startsWith("/") ? `http://owo.invalid${rawPath}` : rawPath).pathname;
  } catch {
    pathname = "/";
  }
  const segments = pathname.split("/").filter(Boolean).map(decodeSegment);
  return { segments, path: "/" + segments.map(spell).join("/") };
}
