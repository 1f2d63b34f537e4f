// Passwords: argon2id at OWASP's minimum (19 MiB, 2 passes, 1 lane); the policy is NIST SP 800-63B's.
import "server-only";
import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { dictionary } from "@zxcvbn-ts/language-common";

// 2 is Algorithm.Argon2id: the package exports it as a const enum, which isolatedModules cannot read.
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

const holder = globalThis as unknown as { __owoDummyHash?: Promise<string> };

/**
 * For an e-mail with no account: the same argon2 work as checking a real password, so "no such account" takes
 * as long to answer as "wrong password" and timing does not tell which addresses have accounts.
 */
export async function noPasswordMatches(password: string): Promise<false> {
  holder.__owoDummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  await passwordMatches(await holder.__owoDummyHash, password);
  return false;
}

export const MIN_PASSWORD = 12;
export const MAX_PASSWORD = 200;
let common: Set<string> | undefined;

/**
 * NIST SP 800-63B: at least 12 characters (any, spaces included), no composition rules; refused when it is one of
 * the ~49,000 most common passwords (zxcvbn-ts's list, a maintained package), is one character or two over and
 * over, or contains the person's e-mail address or its name part.
 */
export function passwordProblem(password: string, email = ""): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD) return `must be at least ${MIN_PASSWORD} characters`;
  if (length > MAX_PASSWORD) return `must be at most ${MAX_PASSWORD} characters`;
  const lower = password.toLowerCase();
  common ??= new Set(dictionary["passwords-common"]);
  if (common.has(lower) || common.has(lower.trim())) return "is one of the most commonly used passwords; choose another";
  if (new Set(lower).size < 3) return "repeats the same characters; choose another";
  const address = email.trim().toLowerCase();
  const name = address.split("@")[0] ?? "";
  if ((address && lower.includes(address)) || (name.length >= 4 && lower.includes(name))) return "must not contain your e-mail address";
  return null;
}
