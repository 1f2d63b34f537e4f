"use client";
import { useMutation } from "@tanstack/react-query";
import { FormError } from "@/app/form-error";
import { useTRPC } from "@/app/trpc-provider";

/** Sends the verification link again (at most once a minute). */
export function ResendVerification() {
  const trpc = useTRPC();
  const resend = useMutation(trpc.account.resendVerification.mutationOptions());
  return (
    <span className="stack">
      <button type="button" className="secondary" disabled={resend.isPending || resend.isSuccess} onClick={() => resend.mutate()}>
        {resend.isSuccess ? `Sent to ${resend.data.sentTo}` : resend.isPending ? "Sending…" : "Send the link again"}
      </button>
      <FormError message={resend.error?.message} />
    </span>
  );
}
