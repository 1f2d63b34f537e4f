// Request bodies: at most 16 KiB, refused as soon as the limit is passed.
import type { IncomingMessage } from "node:http";
import { ApiError } from "../api-error";
import { shownAddress } from "../client-address";

export const MAX_BODY_BYTES = 16 * 1024;

const tooLarge = () => new ApiError("S413", `Request body larger than ${MAX_BODY_BYTES} bytes (16 KiB)`);

/** Fails fast on a declared Content-Length over the limit, before any rate-limit or token work. */
export function checkDeclaredLength(req: IncomingMessage): void {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners("data");
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export function isJsonContentType(req: IncomingMessage): boolean {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  return type === "application/json";
}

/** JSON text → value, or 400 S5 saying the body is not JSON. */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new ApiError("S5", "Invalid/Missing parameters = body: the body is not valid JSON", [
      { field: "body", message: "must be valid JSON" },
    ]);
  }
}

/** Set by the front on every request it hands to Next (a client-sent value is overwritten): the IP clientIp reckons. */
export const CLIENT_IP_HEADER = "x-owo-client-ip";

export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
    if (first) return shownAddress(first);
  }
  // A listener on both IPv4 and IPv6 hears an IPv4 client as ::ffff:a.b.c.d: recorded as the IPv4 address it is.
  return shownAddress(req.socket.remoteAddress ?? "");
}
