// Request lines are logged; the secrets some URLs carry (invite and password-reset tokens) are not.
const SECRET_PARAMS = new Set(["invite", "token", "reset"]);
// Token shapes (invites `inv_`, password resets `rst_`, 20+ characters: not an invoice number) wherever they stand, even inside another parameter.
const SECRET_VALUE = /(inv|rst)_[A-Za-z0-9_-]{20,}/g;

/** The URL with secret query values and token-shaped path segments replaced by `[redacted]`. */
export function redactedUrl(url: string): string {
  const queryAt = url.indexOf("?");
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(SECRET_VALUE, "$1_[redacted]");
  if (queryAt < 0) return path;
  const pairs = url
    .slice(queryAt + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (eq < 0 || !SECRET_PARAMS.has(name.toLowerCase())) return pair.replace(SECRET_VALUE, "$1_[redacted]");
      return `${name}=[redacted]`;
    });
  return `${path}?${pairs.join("&")}`;
}
