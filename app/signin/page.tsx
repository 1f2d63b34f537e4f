import type { Metadata } from "next";
import { sameOriginPath } from "@/server/auth/return-path";
import { signUpOffered } from "@/server/merchants/sign-up";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; joined?: string }> }) {
  const { callbackUrl } = await searchParams;
  const next = sameOriginPath(callbackUrl);
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Owo</p>
        <h1>Sign in</h1>
        <SignInForm next={next} />
        <p className="muted">
          <a href="/forgot-password">Forgot your password?</a>
        </p>
        {signUpOffered("merchant") && (
          <p className="muted">
            New to Owo? <a href="/signup">Create a merchant account</a>
          </p>
        )}
        <p className="muted">
          Building an integration? Read the <a href="/docs">developer docs</a> (no sign-in needed).
        </p>
      </div>
    </main>
  );
}
