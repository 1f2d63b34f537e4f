// Passwords: argon2id at OWASP's minimum (19 MiB, 2 passes, 1 lane).
import "server-only";
import { hash, verify } from "@node-rs/argon2";

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

export const PASSWORD_RULE = "must be 8 to 200 characters";
export function passwordProblem(password: string): string | null {
  return password.length >= 8 && password.length <= 200 ? null : PASSWORD_RULE;
}
