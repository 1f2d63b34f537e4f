// API keys: a public key per merchant and mode, and secret keys that roll (stored hashed, shown once).
import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { db, write, type Db, type Tx } from "../../db/client";
import { apiKeys, apiSecrets, providerAccounts, type Mode } from "../../db/schema";
import { ApiError } from "../api-error";
import { newId } from "../identifiers";
import { sha256 } from "./token-hash";
import { forgetCachedTokens } from "./access-tokens";
import { clock } from "../clock";
import { noticeOwners, OPERATOR_ORIGIN, type Origin } from "../users/security-notices";
import { createSigningSecret } from "../webhooks/signing-secrets";
import type { Scope } from "../merchants/scope";

const MAX_GRACE_SECONDS = 24 * 3600;

function newSecretKey(mode: Mode): string {
  return `sk_${mode}_${randomBytes(20).toString("hex")}`;
}

async function insertSecret(tx: Tx, apiKeyId: string, now: number): Promise<string> {
  const mode = (await tx.select({ mode: apiKeys.mode }).from(apiKeys).where(eq(apiKeys.id, apiKeyId)))[0]?.mode ?? "test";
  const secretKey = newSecretKey(mode);
  await tx
    .insert(apiSecrets)
    .values({ id: newId("sec"), apiKeyId, secretHash: sha256(secretKey), last4: secretKey.slice(-4), createdAt: now });
  return secretKey;
}

/** Creates the merchant's key pair for a mode; the secret is returned once and never stored in clear. */
export async function issueKeyPair(tx: Tx, merchantId: string, mode: Mode, now = clock.now()) {
  const publicKey = `pk_${mode}_${randomBytes(16).toString("hex")}`;
  const id = newId("key");
  await tx.insert(apiKeys).values({ id, merchantId, mode, publicKey, createdAt: now });
  return { publicKey, secretKey: await insertSecret(tx, id, now) };
}

/**
 * Live keys, once (API.md "Operator CLI"): only when a bank-side provider is connected, since nothing else can
 * serve a live payment, and never a second pair (that is a roll). One transaction with its signing secret.
 */
export function createLiveKeys(merchantId: string, origin: Origin = OPERATOR_ORIGIN, now = clock.now()) {
  return write(async (tx) => {
    const [provider] = await tx
      .select({ id: providerAccounts.id })
      .from(providerAccounts)
      .where(and(eq(providerAccounts.merchantId, merchantId), isNull(providerAccounts.disconnectedAt)));
    if (!provider)
      throw new ApiError("S3", "No bank-side provider is connected: connect one first (provider add, or the dashboard's Providers page)");
    const [existing] = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.merchantId, merchantId), eq(apiKeys.mode, "live")));
    if (existing) throw new ApiError("S14", "Live keys exist already: use keys roll --mode live");
    const keys = await issueKeyPair(tx, merchantId, "live", now);
    await noticeOwners(
      tx,
      merchantId,
      (name) => `Live API keys were created for ${name}: real money can now be asked for with them`,
      origin,
      now,
    );
    return { ...keys, webhookSecret: await createSigningSecret(tx, merchantId, "live", now) };
  });
}

/**
 * A new secret for the same public key. The old one dies at once, or after `graceSeconds` (≤ 24 h);
 * its access tokens die with it because every token check looks at its secret.
 */
export async function rollSecretKey({ merchantId, mode }: Scope, graceSeconds = 0, origin: Origin = OPERATOR_ORIGIN, now = clock.now()) {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_GRACE_SECONDS) {
    throw new ApiError("S5", "Invalid/Missing parameters = graceSeconds", [
      { field: "graceSeconds", message: "must be a whole number of seconds from 0 to 86400" },
    ]);
  }
  const rolled = await write(async (tx) => {
    const [key] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.merchantId, merchantId), eq(apiKeys.mode, mode)));
    if (!key) throw new ApiError("S404", `No ${mode} keys for this merchant`);
    await tx
      .update(apiSecrets)
      .set({ expiresAt: now + graceSeconds * 1000 })
      .where(and(eq(apiSecrets.apiKeyId, key.id), isNull(apiSecrets.expiresAt)));
    const grace = graceSeconds === 0 ? "the old one stopped working at once" : `the old one works for ${graceSeconds} more seconds`;
    await noticeOwners(tx, merchantId, (name) => `The ${mode} secret API key of ${name} was rolled; ${grace}`, origin, now);
    return { publicKey: key.publicKey, secretKey: await insertSecret(tx, key.id, now), oldSecretExpiresAt: now + graceSeconds * 1000 };
  });
  // Cached tokens remember the old secret's lifetime; they must meet the new one now.
  forgetCachedTokens();
  return rolled;
}

export type KeyView = { mode: Mode; publicKey: string; secrets: { last4: string; createdAt: number; expiresAt: number | null }[] };

/** What the dashboard may show: public keys and the last four characters of live secrets. */
export async function listKeys(merchantId: string, now = clock.now()): Promise<KeyView[]> {
  const rows = await db()
    .select({
      mode: apiKeys.mode,
      publicKey: apiKeys.publicKey,
      last4: apiSecrets.last4,
      createdAt: apiSecrets.createdAt,
      expiresAt: apiSecrets.expiresAt,
    })
    .from(apiKeys)
    .innerJoin(apiSecrets, eq(apiSecrets.apiKeyId, apiKeys.id))
    .where(eq(apiKeys.merchantId, merchantId));
  const views = new Map<string, KeyView>();
  for (const r of rows) {
    if (r.expiresAt !== null && r.expiresAt <= now) continue;
    const view = views.get(r.publicKey) ?? { mode: r.mode, publicKey: r.publicKey, secrets: [] };
    view.secrets.push({ last4: r.last4, createdAt: r.createdAt, expiresAt: r.expiresAt });
    views.set(r.publicKey, view);
  }
  return [...views.values()].sort((a, b) => a.mode.localeCompare(b.mode));
}

/**
 * Public keys once read: a merchant's public key for a mode never changes (rolling renews the secret only), and every
 * verification and callback names it. "" (no keys yet) is not kept, as another instance may create them any moment.
 * On globalThis so that Next's bundled copy of this module shares it.
 */
const knownPublicKeys = ((globalThis as unknown as { __owoPublicKeys?: Map<string, string> }).__owoPublicKeys ??= new Map<
  string,
  string
>());

/** The merchant's public key for a mode (it never changes); "" when the mode has no keys. `q`: db(), or the caller's tx. */
export async function publicKeyOf(q: Db, { merchantId, mode }: Scope): Promise<string> {
  const known = knownPublicKeys.get(`${merchantId}:${mode}`);
  if (known !== undefined) return known;
  const [key] = await q
    .select({ publicKey: apiKeys.publicKey })
    .from(apiKeys)
    .where(and(eq(apiKeys.merchantId, merchantId), eq(apiKeys.mode, mode)))
    .limit(1);
  if (key) knownPublicKeys.set(`${merchantId}:${mode}`, key.publicKey);
  return key?.publicKey ?? "";
}
