// Where sign-in sends a person afterwards: a page of this site, never another site spelled to look like a path.

const BASE = "http://owo.invalid";

/**
 * The candidate as a same-origin path, or `fallback`. It is parsed the way the browser will parse it (WHATWG URL:
 * `\` is `/`, tabs and newlines are dropped, dot segments resolve), so `/\evil.example` and `/\t/evil.example`,
 * which a prefix check takes for paths, are seen as the other host they are.
 */
export function sameOriginPath(candidate: string | undefined, fallback = "/dashboard"): string {
  if (!candidate) return fallback;
  let url: URL;
  try {
    url = new URL(candidate, `${BASE}/signin`);
  } catch {
    return fallback;
  }
  // `//host` would be read as another host again by whoever follows the path.
  if (url.origin !== BASE || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}
