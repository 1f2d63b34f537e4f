// next-auth v4: the Credentials provider against our users table, JWT sessions; each sign-in recorded against its browser.
import "server-only";
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { cookies } from "next/headers";
import { settings } from "../settings";
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE, newDeviceId, recordSignIn } from "../users/devices";
import { userByCredentials } from "../users/users";

/** The browser's device cookie, set (or renewed) on the sign-in answer; a browser without one is a new device. */
async function deviceOfThisBrowser(): Promise<string> {
  const jar = await cookies();
  const device = jar.get(DEVICE_COOKIE)?.value || newDeviceId();
  jar.set(DEVICE_COOKIE, device, { httpOnly: true, sameSite: "lax", path: "/", maxAge: DEVICE_COOKIE_MAX_AGE, secure: settings().publicUrl.startsWith("https:") });
  return device;
}

export function authOptions(): NextAuthOptions {
  return {
    secret: settings().authSecret,
    session: { strategy: "jwt", maxAge: 12 * 3600 },
    pages: { signIn: "/signin" },
    providers: [
      Credentials({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const user = await userByCredentials(String(credentials?.email ?? ""), String(credentials?.password ?? ""));
          if (!user) return null;
          const headers = (req.headers ?? {}) as Record<string, string | undefined>;
          recordSignIn(user.id, await deviceOfThisBrowser(), { ip: headers["x-owo-client-ip"] ?? null, userAgent: headers["user-agent"] ?? null });
          return user;
        },
      }),
    ],
  };
}
