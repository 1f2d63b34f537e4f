import type { Metadata } from "next";
import { RESET_MINUTES } from "@/server/users/password-reset";
import { ForgotPasswordForm } from "./forgot-form";

export const metadata: Metadata = { title: "Forgot your password" };

export default function ForgotPasswordPage() {
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Owo</p>
        <h1>Forgot your password</h1>
        <p className="muted">We will mail you a link to choose a new one. Choosing it signs you out everywhere.</p>
        <ForgotPasswordForm minutes={RESET_MINUTES} />
        <p className="muted">
          <a href="/signin">Back to sign in</a>
        </p>
      </div>
    </main>
  );
}
