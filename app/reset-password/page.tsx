import type { Metadata } from "next";
import { RESET_MINUTES, resetLinkProblem } from "@/server/users/password-reset";
import { ResetPasswordForm } from "./reset-form";

export const metadata: Metadata = { title: "Choose a new password" };

const PROBLEM = {
  unknown: { title: "This reset link is not valid", text: "Check that the whole link was copied from the mail." },
  used: { title: "This reset link was already used", text: "Each link works once, and only the newest one sent works." },
  expired: { title: "This reset link has expired", text: `Reset links work for ${RESET_MINUTES} minutes.` },
} as const;

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token = "" } = await searchParams;
  const problem = token ? await resetLinkProblem(token) : "unknown";
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Owo</p>
        {problem ? (
          <>
            <h1>{PROBLEM[problem].title}</h1>
            <p className="muted">{PROBLEM[problem].text} Your password has not changed.</p>
            <p>
              <a href="/forgot-password">Ask for a new link</a> · <a href="/signin">Sign in</a>
            </p>
          </>
        ) : (
          <>
            <h1>Choose a new password</h1>
            <p className="muted">Setting it signs you out everywhere; then sign in with the new one.</p>
            <ResetPasswordForm token={token} />
          </>
        )}
      </div>
    </main>
  );
}
