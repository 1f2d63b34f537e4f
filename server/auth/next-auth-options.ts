// next-auth v4: the Credentials provider against our users table, JWT sessions (no session table to keep).
import { eq } from "drizzle-orm";
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { db } from "../../db/client";
import { users } from "../../db/schema";
import { settings } from "../settings";
import { passwordMatches } from "./passwords";

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
          const email = String(credentials?.email ?? "").trim().toLowerCase();
          const password = String(credentials?.password ?? "");
          if (!email || !password) return null;
          const user = db().select().from(users).where(eq(users.email, email)).get();
          if (!user || !(await passwordMatches(user.passwordHash, password))) return null;
          return { id: user.id, email: user.email, name: user.name };
        },
      }),
    ],
  };
}
