// Who may make an account through the sign-up page (API.md "Settings", OWO_SIGNUP). The operator's CLI and the seed
// create merchants whatever the setting; a person already signed in may always accept an invite.
import { ApiError } from "../api-error";
import { settings } from "../settings";
import { createMerchant, type NewMerchant } from "./create-merchant";

export type SignUpKind = "merchant" | "invite";

/** What the sign-up page offers: a new merchant only when open; joining by invite unless closed. */
export function signUpOffered(kind: SignUpKind): boolean {
  const policy = settings().signup;
  return policy === "open" || (kind === "invite" && policy === "invite");
}

export function refuseUnofferedSignUp(kind: SignUpKind): void {
  if (signUpOffered(kind)) return;
  throw new ApiError(
    "S3",
    settings().signup === "invite"
      ? "Sign-up on this Owo is by invitation: ask a merchant's owner or admin for an invite link"
      : "Sign-up is closed on this Owo: its operator creates merchant accounts (npm run owo -- merchant create); already have an account? Sign in",
  );
}

/** A person signing a new merchant up on the page; the operator calls createMerchant itself. */
export async function signUpMerchant(input: Omit<NewMerchant, "emailVerified">) {
  refuseUnofferedSignUp("merchant");
  return createMerchant(input);
}
