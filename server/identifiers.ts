// Owo's own identifiers: prefixed, random, URL-safe.
import { randomBytes, randomInt } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** `mch_3k9…`: 20 random characters (≈103 bits) after the prefix. */
export function newId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[(bytes[i] ?? 0) % 36];
  return `${prefix}_${out}`;
}

/** `n` random decimal digits, leading zeros allowed. */
export function randomDigits(n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += String(randomInt(10));
  return out;
}
