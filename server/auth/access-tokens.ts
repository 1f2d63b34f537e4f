// Access tokens: `<secretKey>.<publicKey>` buys an opaque token bound to one merchant and mode.
import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { changeMarker, db, write } from "../../db/client";
import { accessTokens, apiKeys, apiSecrets, type Mode } from "../../db/schema";
import { ApiError, invalidFields, unauthorized } from "../api-error";
import { sha256 } from "./token-hash";
import { settings } from "../settings";
import { clock } from "../clock";

export type MachineCaller = { kind: "machine"; merchantId: string; mode: Mode; publicKey: string };

/** Names the mode of the secret sent (by its prefix): a rolled test secret is told about test keys, not live ones. */
function wrongPair(secretKey = "", publicKey = "") {
  const mode = /^sk_(test|live)_/.exec(secretKey)?.[1];
  const publicMode = /^pk_(test|live)_/.exec(publicKey)?.[1];
  if (mode && publicMode && mode !== publicMode)
    return unauthorized(`Invalid key pair: a ${mode} secret key with a ${publicMode} public key; send both keys of one mode`);
  if (!mode)
    return unauthorized('Invalid key pair: send {"key": "<secretKey>.<publicKey>"} with a current sk_test_… or sk_live_… secret key');
  return unauthorized(
    `Invalid key pair: this ${mode} secret key is not a current ${mode} secret for that public key (a rolled one stops working when ` +
      `its grace period ends); send {"key": "<secretKey>.<publicKey>"} with the ${mode} secret key last issued`,
  );
}

export async function exchangeKeys(body: unknown, now = clock.now()): Promise<{ token: string; expiresAt: number }> {
  const key = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as { key?: unknown }).key : undefined;
  if (typeof key !== "string" || key.length === 0 || key.length > 200) {
    throw invalidFields([{ field: "key", message: 'must be "<secretKey>.<publicKey>", e.g. sk_test_….pk_test_…' }]);
  }
  const [secretKey, publicKey, ...rest] = key.split(".");
  if (!secretKey || !publicKey || rest.length > 0) throw wrongPair(secretKey, publicKey);
  const [found] = await db()
    .select({ secretId: apiSecrets.id, merchantId: apiKeys.merchantId, mode: apiKeys.mode })
    .from(apiSecrets)
    .innerJoin(apiKeys, eq(apiKeys.id, apiSecrets.apiKeyId))
    .where(
      and(
        eq(apiSecrets.secretHash, sha256(secretKey)),
        eq(apiKeys.publicKey, publicKey),
        isNull(apiKeys.revokedAt),
        or(isNull(apiSecrets.expiresAt), gt(apiSecrets.expiresAt, now)),
      ),
    );
  if (!found) throw wrongPair(secretKey, publicKey);
  const token = `owo_${found.mode}_${randomBytes(32).toString("base64url")}`;
  const expiresAt = now + settings().tokenTtlSeconds * 1000;
  await write(async (tx) => {
    await tx.insert(accessTokens).values({
      tokenHash: sha256(token),
      secretId: found.secretId,
      merchantId: found.merchantId,
      mode: found.mode,
      createdAt: now,
      expiresAt,
    });
    // Housekeeping in the same write: tokens past their life are of no use to anyone.
    await tx.delete(accessTokens).where(lt(accessTokens.expiresAt, now - 3600_000));
  });
  return { token, expiresAt };
}

/**
 * Token hash → caller, kept at most OWO_REVOCATION_SECONDS (API.md: how soon every instance sees a rolled secret)
 * and never past the token's or its secret's expiry: every
 * machine request carries a token, and looking it up was a third of a verification's work (bench/README.md).
 * A roll in this process clears it at once; a write by any other process (the CLI rolling a key, a separate
 * worker) moves SQLite's data_version, which clears it too, so a dead secret's tokens die at once everywhere.
 * On globalThis so that Next's bundled copy of this module shares it.
 */
const TOKEN_CACHE_SIZE = 10_000;
type TokenCache = { entries: Map<string, { caller: MachineCaller; until: number }>; dataVersion: number };
const holder = globalThis as unknown as { __owoTokenCache?: TokenCache };
const cache: TokenCache = (holder.__owoTokenCache ??= { entries: new Map(), dataVersion: -1 });
const tokenCache = cache.entries;

/** Clears the cache when another connection has committed since it was filled. */
function dropIfOthersWrote(): void {
  // On PostgreSQL there is no such number: entries live OWO_REVOCATION_SECONDS at most, API.md's bound.
  const version = changeMarker();
  if (version !== null && version !== cache.dataVersion) {
    tokenCache.clear();
    cache.dataVersion = version;
  }
}

/** Every cached token is looked up again: call after any change that can kill a secret or its tokens. */
export function forgetCachedTokens(): void {
  tokenCache.clear();
}

/** `Authorization: Bearer <token>` → the merchant and mode it acts for, or 401 S1. */
export async function callerFromAuthorization(header: string | undefined, now = clock.now()): Promise<MachineCaller> {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) throw unauthorized("Missing bearer token: send Authorization: Bearer <token> from POST /api/v2/encrypt/keys");
  const tokenHash = sha256(match[1]);
  dropIfOthersWrote();
  const cached = tokenCache.get(tokenHash);
  if (cached && now < cached.until) return cached.caller;
  const [row] = await db()
    .select({
      merchantId: accessTokens.merchantId,
      mode: accessTokens.mode,
      publicKey: apiKeys.publicKey,
      tokenExpiresAt: accessTokens.expiresAt,
      secretExpiresAt: apiSecrets.expiresAt,
    })
    .from(accessTokens)
    .innerJoin(apiSecrets, eq(apiSecrets.id, accessTokens.secretId))
    .innerJoin(apiKeys, eq(apiKeys.id, apiSecrets.apiKeyId))
    .where(
      and(
        eq(accessTokens.tokenHash, tokenHash),
        gt(accessTokens.expiresAt, now),
        isNull(apiKeys.revokedAt),
        or(isNull(apiSecrets.expiresAt), gt(apiSecrets.expiresAt, now)),
      ),
    );
  if (!row) {
    tokenCache.delete(tokenHash);
    throw unauthorized();
  }
  const caller: MachineCaller = { kind: "machine", merchantId: row.merchantId, mode: row.mode, publicKey: row.publicKey };
  if (tokenCache.size >= TOKEN_CACHE_SIZE) tokenCache.delete(tokenCache.keys().next().value ?? "");
  tokenCache.set(tokenHash, {
    caller,
    until: Math.min(now + settings().revocationSeconds * 1000, row.tokenExpiresAt, row.secretExpiresAt ?? Infinity),
  });
  return caller;
}

export function assertPublicKey(caller: MachineCaller, publicKey: unknown): void {
  if (typeof publicKey === "string" && publicKey !== "" && publicKey !== caller.publicKey) {
    throw new ApiError("S1", "publicKey does not belong to this access token's merchant");
  }
}
