// GET /logos/<id>: a merchant's logo, as the bytes it was checked as (server/merchants/logo-image.ts). Public, since
// every checkout shows one; each upload has its own id, so browsers may keep it for good.
import type { ServerResponse } from "node:http";
import { ApiError } from "../api-error";
import { logoBytes } from "../merchants/business-profile";
import { sendError } from "./envelope";

export async function serveLogo(method: string, id: string, res: ServerResponse): Promise<void> {
  if (method !== "GET" && method !== "HEAD") return sendError(res, new ApiError("S405", "Logos are only read (GET)"));
  const logo = /^logo_[0-9a-z]{20}$/.test(id) ? await logoBytes(id) : null;
  if (!logo) return sendError(res, new ApiError("S404", "No such logo"));
  res.statusCode = 200;
  res.setHeader("Content-Type", logo.contentType);
  res.setHeader("Content-Length", logo.bytes.length);
  res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
  // Opened on its own, the image is still never a document: no script, no plug-in, no form, whatever its bytes say.
  res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
  res.setHeader("Content-Disposition", "inline");
  res.end(method === "HEAD" ? undefined : logo.bytes);
}
