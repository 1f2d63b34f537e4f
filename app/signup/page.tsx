import type { Metadata } from "next";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Create your merchant account" };

export default function SignUpPage() {
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Owo</p>
        <h1>Create your merchant account</h1>
        <p className="muted">You start in test mode with sandbox keys: nothing real moves until you go live.</p>
        <SignUpForm />
        <p className="muted">
          Already have an account? <a href="/signin">Sign in</a>
        </p>
      </div>
    </main>
  );
}
