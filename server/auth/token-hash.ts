// How tokens and secrets that are themselves long random strings are kept at rest: SHA-256 (a slow hash buys nothing there).
import { createHash } from "node:crypto";

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
