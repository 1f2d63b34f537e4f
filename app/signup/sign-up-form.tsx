"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { ScriptedForm } from "@/app/form-submit";
import { acceptInviteAsSignedIn, signUp, type SignUpResult } from "./actions";

/** An invite being answered: the token from the link and what the page showed about it. */
export type InviteOffer = { token: string; merchantName: string; role: string; email: string | null; expiresAt: string };

export function SignUpForm({ invite }: { invite?: InviteOffer }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(form: FormData) {
    setBusy(true);
    const input = { name: String(form.get("name")), email: String(form.get("email")), password: String(form.get("password")) };
    const res = await signUp(invite ? { ...input, invite: invite.token } : input);
    if (!res.ok) {
      setErrors(res.errors);
      setMessage(res.message);
      setBusy(false);
      return;
    }
    await signIn("credentials", { email: input.email, password: input.password, redirect: false });
    window.location.assign("/dashboard");
  }
  const field = (
    name: string,
    label: string,
    type: string,
    autoComplete: string,
    props: React.InputHTMLAttributes<HTMLInputElement> = {},
  ) => (
    <label>
      {label}
      <input name={name} type={type} autoComplete={autoComplete} required aria-invalid={Boolean(errors[name])} {...props} />
      {errors[name] && <span className="field-error">{`${label} ${errors[name]}`}</span>}
    </label>
  );
  return (
    <ScriptedForm
      send={submit}
      busy={busy}
      label={invite ? `Join ${invite.merchantName}` : "Create account"}
      busyLabel={invite ? "Joining…" : "Creating…"}
    >
      {invite ? field("name", "Your name", "text", "name") : field("name", "Business name", "text", "organization")}
      {field("email", "E-mail", "email", "email", invite?.email ? { defaultValue: invite.email, readOnly: true } : {})}
      {field("password", "Password", "password", "new-password")}
      {Object.keys(errors).length === 0 && <FormError message={message} />}
    </ScriptedForm>
  );
}

/** Someone already signed in answers the invite with one click. */
export function AcceptInvite({ invite }: { invite: InviteOffer }) {
  const [result, setResult] = useState<SignUpResult | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="stack">
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          const res = await acceptInviteAsSignedIn(invite.token);
          if (res.ok) {
            window.location.assign("/dashboard");
            return;
          }
          setResult(res);
          setBusy(false);
        }}
      >
        {busy ? "Joining…" : `Join ${invite.merchantName} as ${invite.role}`}
      </button>
      {result && !result.ok && <FormError message={result.message} />}
    </div>
  );
}
