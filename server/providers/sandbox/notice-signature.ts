// How the sandbox bank signs its notices to Owo: HMAC-SHA256 over "timestamp.body", like most banks' webhooks.
import { createHmac, timingSafeEqual } from "node:crypto";
import { clock } from "../../clock";

export const SIGNATURE_HEADER = "x-owo-bank-signature";
const TOLERANCE_SECONDS = 300;

export function signNotice(body: string, secret: string, timestamp = Math.floor(clock.now() / 1000)): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

/** True only for a signature made with `secret` over these very bytes within five minutes of now. */
export function noticeSignatureValid(header: string | undefined, body: Buffer, secret: string, now = clock.now()): boolean {
  const parts = new Map((header ?? "").split(",").map((kv) => kv.trim().split("=", 2) as [string, string]));
  const t = Number(parts.get("t"));
  const v1 = parts.get("v1") ?? "";
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > TOLERANCE_SECONDS || !/^[0-9a-f]{64}$/.test(v1)) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(v1, "hex"));
}
