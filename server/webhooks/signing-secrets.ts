// The merchant's callback signing secret per mode: sealed at rest, revealed on request, rolled with a grace period.
import "server-only";
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { signingSecrets, type Mode } from "../../db/schema";
import { ApiError } from "../api-error";
import { seal, unseal } from "../auth/master-key";
import { newId } from "../identifiers";
import { generateSigningSecret } from "./signing";
import { clock } from "../clock";
import { noticeOwners, OPERATOR_ORIGIN, type Origin } from "../users/security-notices";
import type { Scope } from "../merchants/scope";

export async function createSigningSecret(tx: Tx, merchantId: string, mode: Mode, now = clock.now()): Promise<string> {
  const secret = generateSigningSecret();
  await tx.insert(signingSecrets).values({ id: newId("whs"), merchantId, mode, secretEnc: seal(secret), createdAt: now });
  return secret;
}

/** Current secret first, then any rolled one still in its grace period (both sign, space-separated). */
export async function liveSigningSecrets({ merchantId, mode }: Scope, now = clock.now()): Promise<string[]> {
  return (
    await db()
      .select({ secretEnc: signingSecrets.secretEnc })
      .from(signingSecrets)
      .where(
        and(
          eq(signingSecrets.merchantId, merchantId),
          eq(signingSecrets.mode, mode),
          or(isNull(signingSecrets.expiresAt), gt(signingSecrets.expiresAt, now)),
        ),
      )
      .orderBy(desc(signingSecrets.createdAt))
  ).map((r) => unseal(r.secretEnc));
}

/** The current signing secret, created (and kept sealed) first when the merchant has none in this mode. */
export async function revealOrCreateSigningSecret({ merchantId, mode }: Scope): Promise<string> {
  const [current] = await liveSigningSecrets({ merchantId, mode });
  if (current) return current;
  return write(async (tx) => createSigningSecret(tx, merchantId, mode));
}

export async function rollSigningSecret(
  merchantId: string,
  mode: Mode,
  graceSeconds: number,
  origin: Origin = OPERATOR_ORIGIN,
  now = clock.now(),
): Promise<string> {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > 86400) {
    throw new ApiError("S5", "Invalid/Missing parameters = graceSeconds", [
      { field: "graceSeconds", message: "must be a whole number of seconds from 0 to 86400" },
    ]);
  }
  return write(async (tx) => {
    await tx
      .update(signingSecrets)
      .set({ expiresAt: now + graceSeconds * 1000 })
      .where(and(eq(signingSecrets.merchantId, merchantId), eq(signingSecrets.mode, mode), isNull(signingSecrets.expiresAt)));
    const grace = graceSeconds === 0 ? "the old one stopped working at once" : `the old one works for ${graceSeconds} more seconds`;
    await noticeOwners(tx, merchantId, (name) => `The ${mode} callback signing secret of ${name} was rolled; ${grace}`, origin, now);
    return createSigningSecret(tx, merchantId, mode, now);
  });
}
