// Browsers a person signs in from: each carries a random device cookie; a sign-in from one not seen before is mailed.
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { write } from "../../db/client";
import { knownDevices, users } from "../../db/schema";
import { clock } from "../clock";
import { sha256 } from "../auth/token-hash";
import { newDeviceLetter } from "../mail/letters";
import { queueMail } from "../mail/outbox";
import { recordAccountAudit } from "../team/audit";
import { accountUrl, circumstances, type Origin } from "./security-notices";

export const DEVICE_COOKIE = "owo-device";
export const DEVICE_COOKIE_MAX_AGE = 400 * 24 * 3600; // the longest a browser keeps a cookie

export function newDeviceId(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * Records a successful sign-in. A browser the person never signed in from gets a notice by mail; the very first
 * sign-in of an account (right after sign-up) is not news, so it is only recorded.
 */
export async function recordSignIn(userId: string, deviceId: string, origin: Origin, now = clock.now()): Promise<{ newDevice: boolean }> {
  const deviceHash = sha256(deviceId);
  return write(async (tx) => {
    const [known] = await tx
      .select({ userId: knownDevices.userId })
      .from(knownDevices)
      .where(and(eq(knownDevices.userId, userId), eq(knownDevices.deviceHash, deviceHash)));
    if (known) {
      await tx
        .update(knownDevices)
        .set({ lastSeenAt: now, ip: origin.ip })
        .where(and(eq(knownDevices.userId, userId), eq(knownDevices.deviceHash, deviceHash)));
      return { newDevice: false };
    }
    const first = !(await tx.select({ userId: knownDevices.userId }).from(knownDevices).where(eq(knownDevices.userId, userId)).limit(1))[0];
    await tx
      .insert(knownDevices)
      .values({ userId, deviceHash, userAgent: (origin.userAgent ?? "").slice(0, 300), ip: origin.ip, firstSeenAt: now, lastSeenAt: now });
    if (first) return { newDevice: false };
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (user)
      await queueMail(tx, { to: user.email, userId }, newDeviceLetter({ ...circumstances(origin, now), securityUrl: accountUrl() }), now);
    await recordAccountAudit(
      tx,
      userId,
      "account.signInNewDevice",
      { ip: origin.ip, device: origin.userAgent?.slice(0, 120) ?? null },
      now,
    );
    return { newDevice: true };
  });
}
