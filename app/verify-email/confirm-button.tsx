"use client";
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { useHydrated } from "@/app/hydrated";
import { confirmEmail, type VerifyResult } from "./actions";

/** A click, not the page load, confirms: a mail scanner fetching the link must not use it up. */
export function ConfirmEmailButton({ token }: { token: string }) {
  const [result, setResult] = useState<VerifyResult | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  if (result?.ok) {
    return (
      <div role="status" className="stack">
        <h2>E-mail confirmed</h2>
        <p>{result.email} is confirmed. You can now invite your team, connect bank-side providers and go live.</p>
        <p>
          <a href="/dashboard">Open the dashboard</a>
        </p>
      </div>
    );
  }
  return (
    <div className="stack">
      <button
        type="button"
        disabled={busy || !hydrated}
        onClick={async () => {
          setBusy(true);
          setResult(await confirmEmail(token));
          setBusy(false);
        }}
      >
        {busy ? "Confirming…" : "Confirm my e-mail"}
      </button>
      {result && !result.ok && <FormError message={result.message} />}
    </div>
  );
}
