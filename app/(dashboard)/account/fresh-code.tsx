"use client";
// Sensitive actions (roll keys, refund, change roles) refused for want of a fresh two-factor code open this dialog;
// once the code is accepted, the person does the action again.
import { useEffect, useRef, useState } from "react";
import { FormError } from "@/app/form-error";
import { fieldsTo } from "@/app/form-submit";
import { FRESH_CODE_EVENT, trpc } from "@/app/trpc-provider";
import { DialogAnswers } from "../confirm-dialog";

export function FreshCodeDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [accepted, setAccepted] = useState(false);
  const refresh = trpc.account.twoFactor.refresh.useMutation({ onSuccess: () => setAccepted(true) });
  useEffect(() => {
    const open = () => {
      setAccepted(false);
      refresh.reset();
      if (!dialog.current?.open) dialog.current?.showModal();
    };
    window.addEventListener(FRESH_CODE_EVENT, open);
    return () => window.removeEventListener(FRESH_CODE_EVENT, open);
  }, [refresh]);
  return (
    <dialog ref={dialog} aria-label="Enter a two-factor code" style={{ maxWidth: 420 }}>
      {accepted ? (
        <div className="stack" role="status">
          <p>Code accepted. Do what you were doing again: for the next 15 minutes it needs no new code.</p>
          <button type="button" onClick={() => dialog.current?.close()}>
            Close
          </button>
        </div>
      ) : (
        <form className="stack" onSubmit={fieldsTo((form) => refresh.mutate({ code: String(form.get("code") ?? "") }))}>
          <h2 style={{ marginTop: 0 }}>Enter a two-factor code</h2>
          <p className="muted">This action needs a code from your authenticator app from the last 15 minutes.</p>
          <label>
            Current code
            <input name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus />
          </label>
          <FormError message={refresh.error?.message} />
          <div style={{ display: "flex", gap: 8 }}>
            <DialogAnswers dialog={dialog} confirm="Confirm" dismiss="Cancel" busy={refresh.isPending} />
          </div>
        </form>
      )}
    </dialog>
  );
}
