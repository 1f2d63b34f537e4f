"use client";
import { useState } from "react";
import { ScriptedForm } from "@/app/form-submit";
import { askForReset } from "./actions";

export function ForgotPasswordForm({ minutes }: { minutes: number }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function send(form: FormData) {
    setBusy(true);
    const email = String(form.get("email") ?? "").trim();
    await askForReset(email);
    setSentTo(email);
  }
  if (sentTo) {
    return (
      <p role="status">
        If {sentTo} has an Owo account, we mailed it a link to choose a new password. The link works once, for {minutes} minutes.
      </p>
    );
  }
  return (
    <ScriptedForm send={send} busy={busy} label="Mail me a reset link" busyLabel="Sending…">
      <label>
        E-mail
        <input name="email" type="email" autoComplete="email" required />
      </label>
    </ScriptedForm>
  );
}
