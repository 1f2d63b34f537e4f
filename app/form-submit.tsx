"use client";
// How Owo's forms are sent: by JavaScript, the page staying where it is, the form's fields handed to a mutation or a
// server action.
import type { FormEvent, ReactNode } from "react";
import { useHydrated } from "@/app/hydrated";

/** A submit handled here instead of by the browser: `send` gets the form's fields. */
export function fieldsTo(send: (form: FormData) => void) {
  return (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    send(new FormData(e.currentTarget));
  };
}

type ScriptedFormProps = { send: (form: FormData) => void; busy: boolean; label: string; busyLabel: string; children: ReactNode };

/**
 * A form of the signed-out pages (sign-in, sign-up, password reset): its button waits for JavaScript, since a native
 * submit would put the password in the URL, and says what is under way while `busy`.
 */
export function ScriptedForm({ send, busy, label, busyLabel, children }: ScriptedFormProps) {
  const hydrated = useHydrated();
  return (
    <form method="post" className="stack" onSubmit={fieldsTo(send)}>
      {children}
      <button type="submit" disabled={busy || !hydrated}>
        {busy ? busyLabel : label}
      </button>
    </form>
  );
}
