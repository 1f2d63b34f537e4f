// next-auth v4: the Credentials provider against our users table (password, then the second factor when the person
// uses one); the JWT carries a session id checked against the sessions table (sessions.ts) on every use, so sign-out,
// password changes and revocation end it. Each sign-in is also recorded against its browser (new-device notices).
import "server-only";
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { cookies } from "next/headers";
import { CLIENT_IP_HEADER } from "../http/request-body";
import { clock } from "../clock";
import { log } from "../logger";
import { settings } from "../settings";
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE, newDeviceId, recordSignIn } from "../users/devices";
import { checkSecondFactor, twoFactorStatus } from "../users/two-factor";
import { signInWithPassword } from "./sign-in";
import { endSession, liveSessionUser, startSession, type SessionDevice } from "./sessions";

const SESSION_ENDED = "session ended";

function header(headers: Record<string, unknown> | undefined, name: string): string {
  const value = headers?.[name];
  return typeof value === "string" ? value : "";
}

/**
 * What the sign-in form hears when the password was right but a second factor is needed or wrong (next-auth hands a
 * thrown message to the form as `error`; app/signin/sign-in-form.tsx matches these words).
 */
const SECOND_FACTOR = { needed: "second-factor-required", wrong: "second-factor-wrong", locked: "second-factor-locked" } as const;

/** The browser's device cookie, set (or renewed) on the sign-in answer; a browser without one is a new device. */
async function deviceOfThisBrowser(): Promise<string> {
  const jar = await cookies();
  const device = jar.get(DEVICE_COOKIE)?.value || newDeviceId();
  jar.set(DEVICE_COOKIE, device, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: DEVICE_COOKIE_MAX_AGE,
    secure: settings().publicUrl.startsWith("https:"),
  });
  return device;
}

export function authOptions(): NextAuthOptions {
  const s = settings();
  return {
    secret: s.authSecret,
    // The cookie's own lifetime; the session row's absolute expiry (OWO_SESSION_MAX_SECONDS) is what renewal cannot pass.
    session: { strategy: "jwt", maxAge: Math.min(12 * 3600, s.sessionMaxSeconds) },
    pages: { signIn: "/signin" },
    providers: [
      Credentials({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          code: { label: "Code", type: "text" },
        },
        async authorize(credentials, req) {
          const device: SessionDevice = { ip: header(req.headers, CLIENT_IP_HEADER), userAgent: header(req.headers, "user-agent") };
          const user = await signInWithPassword(String(credentials?.email ?? ""), String(credentials?.password ?? ""), device.ip);
          if (!user) return null;
          let secondFactorAt: number | null = null;
          if ((await twoFactorStatus(user.id)).enabled) {
            const code = String(credentials?.code ?? "").trim();
            if (!code) throw new Error(SECOND_FACTOR.needed);
            const outcome = await checkSecondFactor(user.id, code);
            if (outcome !== "ok") throw new Error(SECOND_FACTOR[outcome === "locked" ? "locked" : "wrong"]);
            secondFactorAt = clock.now();
          }
          await recordSignIn(user.id, await deviceOfThisBrowser(), { ip: device.ip || null, userAgent: device.userAgent || null });
          return { ...user, device, secondFactorAt };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          const { device = { ip: "", userAgent: "" }, secondFactorAt = null } = user as {
            device?: SessionDevice;
            secondFactorAt?: number | null;
          };
          return { ...token, sid: (await startSession(user.id, device, clock.now(), secondFactorAt)).id };
        }
        // Thrown, next-auth clears the cookie and answers no session: the session was ended or has run its course.
        if (typeof token.sid !== "string" || typeof token.sub !== "string" || (await liveSessionUser(token.sid)) !== token.sub) {
          throw new Error(SESSION_ENDED);
        }
        return token;
      },
    },
    // An ended session is an everyday answer (no session), not an error worth a stack trace in the log.
    logger: {
      error(code, metadata) {
        if (code === "JWT_SESSION_ERROR" && (metadata as { message?: unknown } | undefined)?.message === SESSION_ENDED) return;
        log.error({ code, metadata }, "next-auth error");
      },
      warn(code) {
        log.warn({ code }, "next-auth warning");
      },
      debug() {},
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sid === "string") await endSession(token.sid, "signed-out");
      },
    },
  };
}
