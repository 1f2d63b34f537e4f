"use client";
// Changing the password or the e-mail: the current password, and the app's code where two-factor sign-in is on.
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";

type Kind = "password" | "email";

export function ChangeCredential({ kind, twoFactorOn }: { kind: Kind; twoFactorOn: boolean }) {
  const [done, setDone] = useState<string | null>(null);
  const onSuccess = () => setDone(kind === "password" ? "Password changed: sign in again with the new one." : "E-mail changed.");
  const password = trpc.account.changePassword.useMutation({ onSuccess: () => (onSuccess(), window.location.assign("/signin")) });
  const email = trpc.account.changeEmail.useMutation({ onSuccess: () => (onSuccess(), window.location.reload()) });
  const mutation = kind === "password" ? password : email;
  const fieldError = (field: string) => mutation.error?.data?.errors.find((e) => e.field === field)?.message;
  const newField = kind === "password" ? "password" : "newEmail";
  return (
    <form
      className="stack"
      data-testid={`change-${kind}`}
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const proof = { currentPassword: String(form.get("currentPassword")), code: String(form.get("code") ?? "") || undefined };
        if (kind === "password") password.mutate({ ...proof, newPassword: String(form.get("new")) });
        else email.mutate({ ...proof, newEmail: String(form.get("new")) });
      }}
    >
      <label>
        {kind === "password" ? "New password" : "New e-mail"}
        <input
          name="new"
          type={kind === "password" ? "password" : "email"}
          autoComplete={kind === "password" ? "new-password" : "email"}
          required
          aria-invalid={Boolean(fieldError(newField))}
        />
        {fieldError(newField) && <span className="field-error">{fieldError(newField)}</span>}
      </label>
      <label>
        Current password
        <input
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={Boolean(fieldError("currentPassword"))}
        />
        {fieldError("currentPassword") && <span className="field-error">{fieldError("currentPassword")}</span>}
      </label>
      {twoFactorOn && (
        <label>
          Code from your app
          <input name="code" inputMode="numeric" autoComplete="one-time-code" required aria-invalid={Boolean(fieldError("code"))} />
          {fieldError("code") && <span className="field-error">{fieldError("code")}</span>}
        </label>
      )}
      <FormError message={mutation.error && !mutation.error.data?.errors.length ? mutation.error.message : undefined} />
      {done && <p role="status">{done}</p>}
      <button type="submit" className="secondary" disabled={mutation.isPending}>
        {kind === "password" ? "Change password" : "Change e-mail"}
      </button>
    </form>
  );
}
