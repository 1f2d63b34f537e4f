"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { ScriptedForm } from "@/app/form-submit";

/** next-auth hands back the message the server threw (server/auth/next-auth-options.ts: SECOND_FACTOR). */
const SECOND_FACTOR_MESSAGES: Record<string, string> = {
  "second-factor-required": "Enter the 6-digit code from your authenticator app, or a recovery code.",
  "second-factor-wrong": "That code is wrong or was already used. Try the current one.",
  "second-factor-locked": "Too many wrong codes: wait 15 minutes, then try again.",
};

export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [askCode, setAskCode] = useState(false);
  const [busy, setBusy] = useState(false);
  async function submit(form: FormData) {
    setBusy(true);
    setError(null);
    const res = await signIn("credentials", {
      email: form.get("email"),
      password: form.get("password"),
      code: form.get("code") ?? "",
      redirect: false,
    });
    // A refusal can come with ok: true (next-auth reports it in `error`), so `error` is read first.
    if (res?.ok && !res.error) {
      window.location.assign(next);
      return;
    }
    setBusy(false);
    const secondFactor = res?.error ? SECOND_FACTOR_MESSAGES[res.error] : undefined;
    if (secondFactor) {
      setAskCode(true);
      setError(res?.error === "second-factor-required" ? null : secondFactor);
      return;
    }
    // Rate limit (429) or lockout (server/auth/sign-in.ts): neither says whether the e-mail has an account.
    const tooMany = res?.status === 429 || res?.error === "TooManyAttempts";
    setError(tooMany ? "Too many failed sign-ins; wait a few minutes and try again." : "Wrong e-mail or password.");
  }
  return (
    <ScriptedForm send={submit} busy={busy} label="Sign in" busyLabel="Signing in…">
      <label>
        E-mail
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {askCode && (
        <label>
          Two-factor code
          <input name="code" type="text" inputMode="numeric" autoComplete="one-time-code" required autoFocus aria-describedby="code-help" />
          <span id="code-help" className="muted">
            {SECOND_FACTOR_MESSAGES["second-factor-required"]}
          </span>
        </label>
      )}
      <FormError message={error} />
    </ScriptedForm>
  );
}
