"use client";
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { ScriptedForm } from "@/app/form-submit";
import { chooseNewPassword, type ResetResult } from "./actions";

export function ResetPasswordForm({ token }: { token: string }) {
  const [result, setResult] = useState<ResetResult | null>(null);
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  async function send(form: FormData) {
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("confirm") ?? "")) return setMismatch(true);
    setMismatch(false);
    setBusy(true);
    setResult(await chooseNewPassword(token, password));
    setBusy(false);
  }
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
    <ScriptedForm send={send} busy={busy} label="Set the new password" busyLabel="Saving…">
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
    </ScriptedForm>
  );
}
