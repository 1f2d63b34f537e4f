import type { Metadata } from "next";
import { signedInPage } from "@/server/trpc/page-caller";
import { twoFactorStatus } from "@/server/users/two-factor";
import { ChangeCredential } from "./credentials";
import { TwoFactorSettings } from "./two-factor";
import { ResendVerification } from "./verification";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const { caller } = await signedInPage();
  const { enabled: twoFactorOn } = await twoFactorStatus(caller.userId);
  return (
    <section>
      <h1>Account</h1>
      {caller.mustEnrolTwoFactor && (
        <p className="notice" role="alert">
          {caller.merchantName} requires two-factor sign-in. Set it up below to use the dashboard.
        </p>
      )}
      <div className="card stack">
        <h2>E-mail</h2>
        <p>
          {caller.email} · {caller.emailVerified ? <strong>confirmed</strong> : <strong>not confirmed yet</strong>}
        </p>
        {!caller.emailVerified && (
          <>
            <p className="muted">
              Until you open the link we mailed you, you can try payments but not invite people, connect bank-side providers or go live.
            </p>
            <ResendVerification />
          </>
        )}
        <p className="muted">A new address must be confirmed by the link mailed to it; the old one is told of the change.</p>
        <ChangeCredential kind="email" twoFactorOn={twoFactorOn} />
      </div>
      <div className="card stack" style={{ marginTop: "1rem" }}>
        <h2>Password</h2>
        <p className="muted">
          Changing it signs out every browser, this one too. Forgot it? Sign out and use <a href="/forgot-password">Forgot your password</a>
          : a link is mailed to your address.
        </p>
        <ChangeCredential kind="password" twoFactorOn={twoFactorOn} />
      </div>
      <div className="card stack" style={{ marginTop: "1rem" }}>
        <h2>Two-factor sign-in</h2>
        <TwoFactorSettings />
      </div>
      <p>
        <a href="/account/sessions">See where you are signed in</a>
      </p>
    </section>
  );
}
