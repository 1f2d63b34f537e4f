// Owo's own identifiers: prefixed, random, URL-safe.
import { randomBytes, randomInt } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
/** 252 = 7 × 36: a byte from 252 up is drawn again, or "0"–"3" would come 8/7 as often as the rest. */
const UNBIASED_BELOW = 252;

/** `mch_3k9…`: 20 random characters (≈103 bits) after the prefix, each of the 36 equally likely. */
export function newId(prefix: string, length = 20): string {
  return `${prefix}_${randomCharacters(length)}`;
}

/** Characters of ALPHABET, each of the 36 equally likely. */
function randomCharacters(length: number): string {
  let out = "";
  while (out.length < length) {
    // A few spare bytes, so a second draw is rare (each byte is refused with probability 4/256).
    for (const byte of randomBytes(length - out.length + 2)) {
      if (byte < UNBIASED_BELOW && out.length < length) out += ALPHABET[byte % 36];
    }
  }
  return out;
}

/** Milliseconds in base 36 fit 9 characters until the year 5188. */
const TIME_CHARACTERS = 9;

/**
 * `led_0mihx2k3p…`: the time (epoch milliseconds in base 36, 9 characters) then 11 random characters (≈56 bits), 20
 * after the prefix as newId's: an id made later sorts after one made earlier (within a millisecond, at random). For rows
 * written often and indexed by id (the books' entries, and their postings by entry): a new row's id then lands at the
 * end of the index, on the page the last one dirtied, instead of on a page of its own anywhere in it (bench/README.md).
 * The machine's time, not Owo's clock (server/clock.ts): nothing but where the row lands depends on it.
 */
export function newOrderedId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36).padStart(TIME_CHARACTERS, "0")}${randomCharacters(20 - TIME_CHARACTERS)}`;
}

/** `n` random decimal digits, leading zeros allowed. */
export function randomDigits(n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += String(randomInt(10));
  return out;
}
