"use client";
import { useState } from "react";
import { useHydrated } from "@/app/hydrated";
import { askForReset } from "./actions";

export function ForgotPasswordForm({ minutes }: { minutes: number }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  if (sentTo) {
    return (
      <p role="status">
        If {sentTo} has an Owo account, we mailed it a link to choose a new password. The link works once, for {minutes} minutes.
      </p>
    );
  }
  return (
    <form
      method="post"
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        const email = String(new FormData(e.currentTarget).get("email") ?? "").trim();
        await askForReset(email);
        setSentTo(email);
      }}
    >
      <label>
        E-mail
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <button type="submit" disabled={busy || !hydrated}>
        {busy ? "Sending…" : "Mail me a reset link"}
      </button>
    </form>
  );
}
