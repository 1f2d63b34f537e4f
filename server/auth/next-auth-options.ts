// next-auth v4: the Credentials provider against our users table, JWT sessions (no session table to keep).
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { settings } from "../settings";
import { userByCredentials } from "../users/users";

export function authOptions(): NextAuthOptions {
  return {
    secret: settings().authSecret,
    session: { strategy: "jwt", maxAge: 12 * 3600 },
    pages: { signIn: "/signin" },
    providers: [
      Credentials({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          return userByCredentials(String(credentials?.email ?? ""), String(credentials?.password ?? ""));
        },
      }),
    ],
  };
}
