// Secrets Owo must read back (callback signing secrets) are sealed with AES-256-GCM under OWO_MASTER_KEY.
import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { settings } from "../settings";

export function seal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", settings().masterKey, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(".");
}

export function unseal(sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !body) throw new Error("not a sealed value");
  const decipher = createDecipheriv("aes-256-gcm", settings().masterKey, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}
