// Two-factor sign-in (TOTP, RFC 6238, via otplib): enrolment by QR code and a typed code, ten one-time recovery
// codes, and the one check every door uses (sign-in, sensitive actions), with wrong codes counted in the database.
import { createHmac, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { db, write, type Tx } from "../../db/client";
import { memberships, merchants, recoveryCodes, secondFactorFailures, sessions, users } from "../../db/schema";
import { ApiError } from "../api-error";
import { seal, unseal } from "../auth/master-key";
import { markSecondFactor, secondFactorCheckedAt } from "../auth/sessions";
import { clock } from "../clock";
import { settings } from "../settings";
import { recordAccountAudit } from "../team/audit";
import { noticeUser, type Origin } from "./security-notices";

const RECOVERY_CODE_COUNT = 10;
const MAX_WRONG_CODES = 5;
const WRONG_CODE_WINDOW_MS = 15 * 60_000;
const STEP_SECONDS = 30;
/** Sensitive actions need a second factor proved within this long on the session asking. */
const FRESH_SECOND_FACTOR_MS = 15 * 60_000;
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"; // no 0/o, 1/l/i: read from paper

/** Keyed by the master key: a stolen database alone cannot test guesses against the hashes. */
function recoveryHash(code: string): string {
  return createHmac("sha256", settings().masterKey)
    .update(`recovery:${code.toLowerCase().replace(/[^a-z0-9]/g, "")}`)
    .digest("hex");
}

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Ten fresh codes replace any earlier ones; the plain codes are returned to be shown once. */
async function replaceRecoveryCodes(tx: Tx, userId: string, now: number): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  for (const code of codes) await tx.insert(recoveryCodes).values({ userId, codeHash: recoveryHash(code), createdAt: now });
  return codes;
}

export type TwoFactorStatus = { enabled: boolean; enabledAt: number | null; recoveryCodesLeft: number; requiredBy: string[] };

/** Whether the person uses two factors, how many recovery codes are left, and which of their teams require it. */
export async function twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
  const [user] = await db().select({ enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId));
  const [left] = await db()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const requiredBy = (
    await db()
      .select({ name: merchants.name })
      .from(memberships)
      .innerJoin(merchants, eq(merchants.id, memberships.merchantId))
      .where(and(eq(memberships.userId, userId), eq(merchants.requireTwoFactor, true)))
  ).map((r) => r.name);
  return { enabled: Boolean(user?.enabledAt), enabledAt: user?.enabledAt ?? null, recoveryCodesLeft: left?.n ?? 0, requiredBy };
}

/** A new secret to enrol, kept aside until a code from it is typed; the QR code is an otpauth:// URI any authenticator app reads. */
export async function startEnrolment(userId: string): Promise<{ secret: string; otpauthUri: string; qrSvg: string }> {
  const [user] = await db().select({ email: users.email, enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId));
  if (!user) throw new ApiError("S1", "Sign in again");
  if (user.enabledAt !== null) throw new ApiError("S14", "Two-factor sign-in is already on; turn it off first to enrol another app");
  const secret = generateSecret();
  await write(async (tx) =>
    tx
      .update(users)
      .set({ totpPendingEnc: seal(secret) })
      .where(eq(users.id, userId)),
  );
  const otpauthUri = generateURI({ issuer: "Owo", label: user.email, secret });
  const qrSvg = await QRCode.toString(otpauthUri, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
  return { secret, otpauthUri, qrSvg };
}

/** The matching time-step of a six-digit code, within one step either side of now, or null. */
async function matchingStep(secret: string, code: string, now: number): Promise<number | null> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const result = await verify({ secret, token, epoch: Math.floor(now / 1000), epochTolerance: STEP_SECONDS });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

async function recentFailures(tx: Pick<Tx, "select">, userId: string, now: number): Promise<number> {
  return (
    (
      await tx
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(secondFactorFailures)
        .where(and(eq(secondFactorFailures.userId, userId), gt(secondFactorFailures.failedAt, now - WRONG_CODE_WINDOW_MS)))
    )[0]?.n ?? 0
  );
}

const LOCKED = () => new ApiError("S429", `Too many wrong codes: wait up to ${WRONG_CODE_WINDOW_MS / 60_000} minutes, then try again`);
const WRONG = () =>
  new ApiError("S5", "Invalid/Missing parameters = code", [{ field: "code", message: "is not the current code (or it was already used)" }]);

export type SecondFactorOutcome = "ok" | "wrong" | "locked";

/**
 * Checks a code from the authenticator app (accepted once: its time-step must be newer than the last accepted) or
 * a recovery code (used up). At most MAX_WRONG_CODES wrong ones per person per 15 minutes, counted in the database.
 */
export async function checkSecondFactor(userId: string, code: string, now = clock.now()): Promise<SecondFactorOutcome> {
  if ((await recentFailures(db(), userId, now)) >= MAX_WRONG_CODES) return "locked";
  const [user] = await db()
    .select({ secretEnc: users.totpSecretEnc, lastStep: users.totpLastStep })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.secretEnc) return "wrong";
  const step = await matchingStep(unseal(user.secretEnc), code, now);
  return write(async (tx) => {
    if ((await recentFailures(tx, userId, now)) >= MAX_WRONG_CODES) return "locked";
    if (step !== null) {
      // Compare-and-set: of two requests carrying the same code, only one moves the step on.
      const taken = await tx
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, userId), sql`coalesce(${users.totpLastStep}, -1) < ${step}`))
        .returning({ id: users.id });
      if (taken.length === 1) return "ok";
    } else {
      const used = await tx
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, recoveryHash(code)), isNull(recoveryCodes.usedAt)))
        .returning({ userId: recoveryCodes.userId });
      if (used.length === 1) {
        await recordAccountAudit(tx, userId, "account.useRecoveryCode", {}, now);
        return "ok";
      }
    }
    await tx.insert(secondFactorFailures).values({ userId, failedAt: now });
    return "wrong";
  });
}

/** Throws the refusal a door shows for a wrong or locked-out code. */
export async function requireSecondFactor(userId: string, code: string, now = clock.now()): Promise<void> {
  const outcome = await checkSecondFactor(userId, code, now);
  if (outcome === "locked") throw LOCKED();
  if (outcome === "wrong") throw WRONG();
}

/**
 * Turns two-factor sign-in on with a code from the enrolled app; answers the ten recovery codes, shown once. The code
 * proves the factor on the session that typed it (`sessionId`), as a sign-in with it would.
 */
export async function confirmEnrolment(
  userId: string,
  code: string,
  origin: Origin,
  sessionId: string | null = null,
  now = clock.now(),
): Promise<{ recoveryCodes: string[] }> {
  if ((await recentFailures(db(), userId, now)) >= MAX_WRONG_CODES) throw LOCKED();
  const [user] = await db()
    .select({ pendingEnc: users.totpPendingEnc, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  if (user?.enabledAt) throw new ApiError("S14", "Two-factor sign-in is already on");
  if (!user?.pendingEnc)
    throw new ApiError("S5", "Start again: scan a new QR code first", [{ field: "code", message: "has no enrolment to confirm" }]);
  const step = await matchingStep(unseal(user.pendingEnc), code, now);
  return write(async (tx) => {
    if (step === null) {
      await tx.insert(secondFactorFailures).values({ userId, failedAt: now });
      throw WRONG();
    }
    await tx
      .update(users)
      .set({ totpSecretEnc: user.pendingEnc, totpPendingEnc: null, totpEnabledAt: now, totpLastStep: step })
      .where(eq(users.id, userId));
    const codes = await replaceRecoveryCodes(tx, userId, now);
    if (sessionId)
      await tx
        .update(sessions)
        .set({ secondFactorAt: now })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
    await recordAccountAudit(tx, userId, "account.enableTwoFactor", {}, now);
    await noticeUser(tx, userId, "Two-factor sign-in was turned on for your Owo account", origin, now);
    return { recoveryCodes: codes };
  });
}

/** New recovery codes (the old ones stop working), after a fresh code. */
export async function renewRecoveryCodes(
  userId: string,
  code: string,
  origin: Origin,
  now = clock.now(),
): Promise<{ recoveryCodes: string[] }> {
  await requireSecondFactor(userId, code, now);
  return write(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, userId, now);
    await recordAccountAudit(tx, userId, "account.renewRecoveryCodes", {}, now);
    await noticeUser(tx, userId, "New two-factor recovery codes were made for your Owo account; the old ones no longer work", origin, now);
    return { recoveryCodes: codes };
  });
}

/** Turns two-factor sign-in off, after a fresh code; refused while one of the person's teams requires it. */
export async function disableTwoFactor(userId: string, code: string, origin: Origin, now = clock.now()): Promise<{ enabled: false }> {
  const { requiredBy } = await twoFactorStatus(userId);
  if (requiredBy.length) throw new ApiError("S3", `${requiredBy.join(", ")} requires two-factor sign-in, so it cannot be turned off`);
  await requireSecondFactor(userId, code, now);
  await write(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecretEnc: null, totpEnabledAt: null, totpLastStep: null, totpPendingEnc: null })
      .where(eq(users.id, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await recordAccountAudit(tx, userId, "account.disableTwoFactor", {}, now);
    await noticeUser(tx, userId, "Two-factor sign-in was turned off for your Owo account", origin, now);
  });
  return { enabled: false };
}

/** An owner requires (or stops requiring) two factors of the whole team; they must use it themselves to require it. */
export async function setTeamTwoFactor(merchantId: string, actorUserId: string, required: boolean): Promise<{ requireTwoFactor: boolean }> {
  if (required && !(await twoFactorStatus(actorUserId)).enabled) {
    throw new ApiError("S3", "Turn on two-factor sign-in for yourself first, on the Account page, then require it of the team");
  }
  await write(async (tx) => tx.update(merchants).set({ requireTwoFactor: required }).where(eq(merchants.id, merchantId)));
  return { requireTwoFactor: required };
}

/**
 * Sensitive actions (roll keys or secrets, change roles, refund, connect or change a provider): a person who uses two
 * factors must have proved one on this session within the last 15 minutes, or is asked for a fresh code.
 */
export async function assertFreshSecondFactor(userId: string, sessionId: string | null, now = clock.now()): Promise<void> {
  const enabled = (await db().select({ at: users.totpEnabledAt }).from(users).where(eq(users.id, userId)))[0]?.at ?? null;
  if (enabled === null) return;
  const checkedAt = sessionId ? await secondFactorCheckedAt(userId, sessionId) : null;
  if (checkedAt !== null && now - checkedAt < FRESH_SECOND_FACTOR_MS) return;
  throw new ApiError("S3", "Enter a current two-factor code first: this needs one from the last 15 minutes", [
    { field: "secondFactor", message: "must be entered again" },
  ]);
}

/** A fresh code for this session, so its sensitive actions are allowed for the next 15 minutes. */
export async function refreshSecondFactor(
  userId: string,
  sessionId: string | null,
  code: string,
  now = clock.now(),
): Promise<{ freshUntil: number }> {
  if (!sessionId) throw new ApiError("S1", "Sign in again");
  await requireSecondFactor(userId, code, now);
  await markSecondFactor(userId, sessionId, now);
  return { freshUntil: now + FRESH_SECOND_FACTOR_MS };
}
