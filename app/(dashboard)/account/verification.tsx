"use client";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";

/** Sends the verification link again (at most once a minute). */
export function ResendVerification() {
  const resend = trpc.account.resendVerification.useMutation();
  return (
    <span className="stack">
      <button type="button" className="secondary" disabled={resend.isPending || resend.isSuccess} onClick={() => resend.mutate()}>
        {resend.isSuccess ? `Sent to ${resend.data.sentTo}` : resend.isPending ? "Sending…" : "Send the link again"}
      </button>
      <FormError message={resend.error?.message} />
    </span>
  );
}
