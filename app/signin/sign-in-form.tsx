"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { useHydrated } from "@/app/hydrated";

export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const form = new FormData(e.currentTarget);
    const res = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false });
    if (res?.ok) {
      window.location.assign(next);
      return;
    }
    setBusy(false);
    // Rate limit (429) or lockout (server/auth/sign-in.ts): neither says whether the e-mail has an account.
    const tooMany = res?.status === 429 || res?.error === "TooManyAttempts";
    setError(tooMany ? "Too many failed sign-ins; wait a few minutes and try again." : "Wrong e-mail or password.");
  }
  return (
    <form onSubmit={submit} method="post" className="stack">
      <label>
        E-mail
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <FormError message={error} />
      <button type="submit" disabled={busy || !hydrated}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
