"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { signUp } from "./actions";

export function SignUpForm() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    const form = new FormData(e.currentTarget);
    const input = { name: String(form.get("name")), email: String(form.get("email")), password: String(form.get("password")) };
    const res = await signUp(input);
    if (!res.ok) {
      setErrors(res.errors);
      setMessage(res.message);
      setBusy(false);
      return;
    }
    await signIn("credentials", { email: input.email, password: input.password, redirect: false });
    window.location.assign("/dashboard");
  }
  const field = (name: string, label: string, type: string, autoComplete: string) => (
    <label>
      {label}
      <input name={name} type={type} autoComplete={autoComplete} required aria-invalid={Boolean(errors[name])} />
      {errors[name] && <span className="field-error">{`${label} ${errors[name]}`}</span>}
    </label>
  );
  return (
    <form onSubmit={submit} className="stack">
      {field("name", "Business name", "text", "organization")}
      {field("email", "E-mail", "email", "email")}
      {field("password", "Password", "password", "new-password")}
      {message && Object.keys(errors).length === 0 && (
        <p role="alert" className="form-error">
          {message}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? "Creating…" : "Create account"}
      </button>
    </form>
  );
}
