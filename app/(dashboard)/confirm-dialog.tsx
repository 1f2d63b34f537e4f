"use client";
// The dashboard's dialogs that ask before a step that cannot be taken back (cancel a payment, refund, give a refund up,
// roll a secret) and the two answers every such dialog offers.
import type { ReactNode, RefObject } from "react";

type Dialog = RefObject<HTMLDialogElement | null>;

/** A submit that does what the dialog asks, and a button that closes it with nothing done. */
export function DialogAnswers({
  dialog,
  confirm,
  dismiss,
  danger,
  busy,
}: {
  dialog: Dialog;
  confirm: string;
  dismiss: string;
  danger?: boolean;
  busy?: boolean;
}) {
  return (
    <>
      <button type="submit" className={danger ? "danger" : undefined} disabled={busy}>
        {confirm}
      </button>
      <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
        {dismiss}
      </button>
    </>
  );
}

type ConfirmDialogProps = {
  dialog: Dialog;
  /** What the dialog asks; read out as its name (the heading is among `children`). */
  title: string;
  className: string | undefined;
  confirm: string;
  dismiss: string;
  /** Called with the dialog's fields as it closes on the confirm button (a `method="dialog"` form). */
  onConfirm: (form: FormData) => void;
  form?: RefObject<HTMLFormElement | null>;
  children: ReactNode;
};

/** The dialog opened by `dialog.current.showModal()`: the heading, explanation and fields in `children`, then the answers. */
export function ConfirmDialog({ dialog, title, className, confirm, dismiss, onConfirm, form, children }: ConfirmDialogProps) {
  return (
    <dialog ref={dialog} className={className} aria-label={title}>
      <form ref={form} method="dialog" className="stack" onSubmit={(e) => onConfirm(new FormData(e.currentTarget))}>
        {children}
        <div className="row">
          <DialogAnswers dialog={dialog} confirm={confirm} dismiss={dismiss} danger />
        </div>
      </form>
    </dialog>
  );
}
