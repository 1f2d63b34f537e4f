import type { Metadata } from "next";
import { pageCaller } from "@/server/trpc/page-caller";
import { ResendVerification } from "./verification";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const { caller } = await pageCaller();
  if (!caller) return null;
  return (
    <section>
      <h1>Account</h1>
      <div className="card stack">
        <h2>E-mail</h2>
        <p>
          {caller.email} ·{" "}
          {caller.emailVerified ? <strong>confirmed</strong> : <strong>not confirmed yet</strong>}
        </p>
        {!caller.emailVerified && (
          <>
            <p className="muted">Until you open the link we mailed you, you can try payments but not invite people, connect bank-side providers or go live.</p>
            <ResendVerification />
          </>
        )}
        <p className="muted">
          Forgot your password? Sign out and use <a href="/forgot-password">Forgot your password</a>: a link is mailed to this address.
        </p>
      </div>
    </section>
  );
}
