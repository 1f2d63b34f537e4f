// Single-use links mailed to a person: a random token in the link, only its SHA-256 at rest, a lifetime, used once.
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { type Tx } from "../../db/client";
import { accountTokens } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import { newId } from "../identifiers";
import { sha256 } from "../auth/token-hash";

export type TokenPurpose = (typeof accountTokens.$inferSelect)["purpose"];

/** A new token for `userId`; earlier unused ones of the same purpose stop working, so only the newest link counts. */
export async function issueAccountToken(
  tx: Tx,
  userId: string,
  purpose: TokenPurpose,
  lifetimeMs: number,
  now = clock.now(),
): Promise<string> {
  await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
  const token = randomBytes(32).toString("base64url");
  await tx
    .insert(accountTokens)
    .values({ id: newId("atk"), userId, purpose, tokenHash: sha256(token), createdAt: now, expiresAt: now + lifetimeMs });
  return token;
}

/** How many links of `purpose` were mailed to `userId` after `since`: the per-address limit on mailing them. */
export async function issuedSince(tx: Pick<Tx, "select">, userId: string, purpose: TokenPurpose, since: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), gt(accountTokens.createdAt, since)));
  return row?.n ?? 0;
}

export type TokenProblem = "unknown" | "used" | "expired";

/** Why a link no longer works, in the words its page shows; null when it still works. */
export async function tokenProblem(
  tx: Pick<Tx, "select">,
  token: string,
  purpose: TokenPurpose,
  now = clock.now(),
): Promise<TokenProblem | null> {
  const [row] = await tx
    .select()
    .from(accountTokens)
    .where(eq(accountTokens.tokenHash, sha256(token)));
  if (!row || row.purpose !== purpose) return "unknown";
  if (row.usedAt !== null) return "used";
  if (row.expiresAt <= now) return "expired";
  return null;
}

const REFUSAL: Record<TokenProblem, string> = {
  unknown: "This link is not valid. Check that it was copied whole, or ask for a new one.",
  used: "This link was already used (or a newer one was sent). Ask for a new one if you still need it.",
  expired: "This link has expired. Ask for a new one.",
};

/** Uses the token up in the caller's transaction and names its person; a used, expired or unknown one is refused. */
export async function useAccountToken(tx: Tx, token: string, purpose: TokenPurpose, now = clock.now()): Promise<string> {
  const problem = await tokenProblem(tx, token, purpose, now);
  if (problem) throw new ApiError("S404", REFUSAL[problem], [{ field: "token", message: problem }]);
  const [row] = await tx
    .select({ userId: accountTokens.userId })
    .from(accountTokens)
    .where(eq(accountTokens.tokenHash, sha256(token)));
  await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(eq(accountTokens.tokenHash, sha256(token)));
  if (!row) throw new ApiError("S404", REFUSAL.unknown);
  return row.userId;
}
