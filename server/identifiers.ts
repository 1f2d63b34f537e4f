// Owo's own identifiers: prefixed, random, URL-safe.
import { randomBytes, randomInt } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
/** 252 = 7 × 36: a byte from 252 up is drawn again, or "0"–"3" would come 8/7 as often as the rest. */
const UNBIASED_BELOW = 252;

/** `mch_3k9…`: 20 random characters (≈103 bits) after the prefix, each of the 36 equally likely. */
export function newId(prefix: string, length = 20): string {
  let out = "";
  while (out.length < length) {
    // A few spare bytes, so a second draw is rare (each byte is refused with probability 4/256).
    for (const byte of randomBytes(length - out.length + 2)) {
      if (byte < UNBIASED_BELOW && out.length < length) out += ALPHABET[byte % 36];
    }
  }
  return `${prefix}_${out}`;
}

/** `n` random decimal digits, leading zeros allowed. */
export function randomDigits(n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += String(randomInt(10));
  return out;
}
