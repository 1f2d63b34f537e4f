import type { Metadata } from "next";
import { ConfirmEmailButton } from "./confirm-button";

export const metadata: Metadata = { title: "Confirm your e-mail" };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Owo</p>
        <h1>Confirm your e-mail</h1>
        {token ? (
          <>
            <p className="muted">One click confirms the address this link was mailed to.</p>
            <ConfirmEmailButton token={token} />
          </>
        ) : (
          <p className="muted">
            This address has no link in it. Open the link from the mail we sent you, or send it again from Account in the dashboard.
          </p>
        )}
      </div>
    </main>
  );
}
