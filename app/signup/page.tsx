import type { Metadata } from "next";
import { lagosDateTime } from "@/app/payment-display";
import { ApiError } from "@/server/api-error";
import { signUpOffered } from "@/server/merchants/sign-up";
import { settings } from "@/server/settings";
import { inviteByToken } from "@/server/team/invites";
import { signedInUserId } from "./session";
import { AcceptInvite, SignUpForm, type InviteOffer } from "./sign-up-form";

export const metadata: Metadata = { title: "Create your merchant account" };

async function offerFor(token: string): Promise<InviteOffer | null> {
  try {
    return { token, ...(await inviteByToken(token)) };
  } catch (e) {
    if (e instanceof ApiError && e.code === "S404") return null;
    throw e;
  }
}

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ invite?: string }> }) {
  const { invite: token } = await searchParams;
  if (token) return <InvitePage token={token} />;
  if (!signUpOffered("merchant")) return <NoSignUp />;
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

/** OWO_SIGNUP=invite or closed: the page says who makes accounts here instead of offering a form that would refuse. */
function NoSignUp() {
  const byInvite = settings().signup === "invite";
  return (
    <main className="auth">
      <div className="auth-card" data-testid="no-sign-up">
        <p className="brand">Owo</p>
        <h1>{byInvite ? "Sign-up is by invitation" : "Sign-up is closed"}</h1>
        <p className="muted">
          {byInvite
            ? "This Owo makes accounts only for people invited to a merchant's team: ask its owner or an admin for an invite link."
            : "This Owo's operator creates merchant accounts; ask them for yours."}
        </p>
        <p className="muted">
          Already have an account? <a href="/signin">Sign in</a>
        </p>
      </div>
    </main>
  );
}

async function InvitePage({ token }: { token: string }) {
  const offer = await offerFor(token);
  const signedIn = offer ? (await signedInUserId()) !== null : false;
  const signInHere = `/signin?callbackUrl=${encodeURIComponent(`/signup?invite=${token}`)}`;
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Owo</p>
        {!offer ? (
          <>
            <h1>This invite link is not valid</h1>
            <p className="muted">
              It was already used, withdrawn, or it expired (invites last 7 days). Ask whoever invited you for a new link.
            </p>
            <p className="muted">
              <a href="/signin">Sign in</a>
              {signUpOffered("merchant") && (
                <>
                  {" "}
                  · <a href="/signup">Create a merchant account</a>
                </>
              )}
            </p>
          </>
        ) : (
          <>
            <h1>Join {offer.merchantName}</h1>
            <p className="muted">
              You are invited as <strong>{offer.role}</strong>. The link works once, until {lagosDateTime(offer.expiresAt)}.
            </p>
            {signedIn ? (
              <>
                <AcceptInvite invite={offer} />
                <p className="muted">You are signed in; joining adds this team to your account.</p>
              </>
            ) : !signUpOffered("invite") ? (
              <p className="muted" data-testid="no-sign-up">
                Sign-up is closed on this Owo, so the invite is for an account you already have: <a href={signInHere}>sign in to accept</a>.
              </p>
            ) : (
              <>
                <SignUpForm invite={offer} />
                <p className="muted">
                  Already have an account? <a href={signInHere}>Sign in to accept</a>
                </p>
              </>
            )}
          </>
        )}
      </div>
    </main>
  );
}
