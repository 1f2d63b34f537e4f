/**
 * Password sign-in with lockout. Failures are counted per e-mail and per client IP in the database (every instance
 * sees them): past a threshold each further failure locks that key for twice as long as the last, up to 15 minutes.
 * So a password can be guessed neither from one address against many accounts nor from many addresses against one.
 * Unknown e-mails count and lock exactly like known ones, so a lockout says nothing about whether an account exists.
 */
import { eq, lt } from "drizzle-orm";
import { write } from "../../db/client";
import { signInFailures } from "../../db/schema";
import { clock } from "../clock";
import { sha256 } from "./token-hash";
import { normaliseEmail } from "../mail/addresses";
import { userByCredentials, type SignedInUser } from "../users/users";

const ACCOUNT_THRESHOLD = 5;
const IP_THRESHOLD = 20;
const FIRST_LOCK_MS = 30_000;
const LONGEST_LOCK_MS = 15 * 60_000;
/** A key with no failure for this long starts again from zero. */
const FORGET_AFTER_MS = 60 * 60_000;

/** Thrown while locked; next-auth hands its message to the form as `error`. */
export class SignInLocked extends Error {
  constructor() {
    super("TooManyAttempts");
  }
}

/**
 * Loopback is not counted per IP: behind a local proxy (without OWO_TRUST_PROXY) every client is 127.0.0.1, and one
 * attacker would lock everyone out. The per-account count still holds there.
 */
function ipCounted(ip: string): boolean {
  return ip !== "" && ip !== "::1" && !ip.startsWith("127.") && !ip.startsWith("::ffff:127.");
}

// Addresses are kept hashed: the table holds every address anyone typed, typos and strangers' included.
const keys = (email: string, ip: string) => [`email:${sha256(normaliseEmail(email))}`, ...(ipCounted(ip) ? [`ip:${ip}`] : [])];

/**
 * Reserves one attempt on `key` before the password is looked at: in one write transaction, refused while the key is
 * locked, otherwise counted as a failure at once (locking the key when it reaches its threshold). So a burst of
 * concurrent guesses is checked against the limit one at a time, never all against the same old count.
 */
async function reserveAttempt(key: string, threshold: number, now: number): Promise<boolean> {
  return write(async (tx) => {
    const [row] = await tx.select().from(signInFailures).where(eq(signInFailures.key, key));
    const live = row && now - row.lastFailureAt < FORGET_AFTER_MS ? row : undefined;
    if (live && live.lockedUntil > now) return false;
    const failures = (live?.failures ?? 0) + 1;
    const lockMs = failures < threshold ? 0 : Math.min(LONGEST_LOCK_MS, FIRST_LOCK_MS * 2 ** (failures - threshold));
    const values = { failures, lastFailureAt: now, lockedUntil: lockMs ? now + lockMs : 0 };
    await tx
      .insert(signInFailures)
      .values({ key, ...values })
      .onConflictDoUpdate({ target: signInFailures.key, set: values });
    // Keys forgotten anyway are dropped, so guesses at many addresses cannot grow the table without bound.
    await tx.delete(signInFailures).where(lt(signInFailures.lastFailureAt, now - FORGET_AFTER_MS));
    return true;
  });
}

/** A reserved attempt that turned out right is no guess: the IP's reservation is given back (its count stays). */
async function returnAttempt(key: string, threshold: number): Promise<void> {
  await write(async (tx) => {
    const [row] = await tx.select().from(signInFailures).where(eq(signInFailures.key, key));
    if (!row) return;
    const failures = Math.max(0, row.failures - 1);
    await tx
      .update(signInFailures)
      .set({ failures, lockedUntil: failures < threshold ? 0 : row.lockedUntil })
      .where(eq(signInFailures.key, key));
  });
}

/** The person, or null for wrong credentials; throws SignInLocked while the e-mail or the IP is locked out. */
export async function signInWithPassword(email: string, password: string, ip: string, now = clock.now()): Promise<SignedInUser | null> {
  const [accountKey, ipKey] = keys(email, ip) as [string, string | undefined];
  // Locked: refused before the password is even looked at, so guesses made meanwhile learn nothing.
  if (!(await reserveAttempt(accountKey, ACCOUNT_THRESHOLD, now))) throw new SignInLocked();
  if (ipKey && !(await reserveAttempt(ipKey, IP_THRESHOLD, now))) throw new SignInLocked();
  const user = await userByCredentials(email, password);
  if (user) {
    // The IP's earlier count is kept: signing in to one's own account must not wash away guesses at others'.
    await write(async (tx) => tx.delete(signInFailures).where(eq(signInFailures.key, accountKey)));
    if (ipKey) await returnAttempt(ipKey, IP_THRESHOLD);
    return user;
  }
  return null;
}
