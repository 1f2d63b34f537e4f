"use client";
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { useHydrated } from "@/app/hydrated";
import { chooseNewPassword, type ResetResult } from "./actions";

export function ResetPasswordForm({ token }: { token: string }) {
  const [result, setResult] = useState<ResetResult | null>(null);
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  if (result?.ok) {
    return (
      <div role="status" className="stack">
        <h2>Password changed</h2>
        <p>The password of {result.email} is changed, and every session that was signed in with the old one has ended.</p>
        <p>
          <a href="/signin">Sign in with the new password</a>
        </p>
      </div>
    );
  }
  return (
    <form
      method="post"
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const password = String(form.get("password") ?? "");
        if (password !== String(form.get("confirm") ?? "")) return setMismatch(true);
        setMismatch(false);
        setBusy(true);
        setResult(await chooseNewPassword(token, password));
        setBusy(false);
      }}
    >
      <label>
        New password
        <input name="password" type="password" autoComplete="new-password" required />
      </label>
      <label>
        The same again
        <input name="confirm" type="password" autoComplete="new-password" required />
      </label>
      {mismatch && <FormError message="The two passwords differ." />}
      {result && !result.ok && <FormError message={result.message} />}
      <button type="submit" disabled={busy || !hydrated}>
        {busy ? "Saving…" : "Set the new password"}
      </button>
    </form>
  );
}
