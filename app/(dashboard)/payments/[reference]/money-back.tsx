"use client";
// Owners and admins call a pending payment off, or pay money back, each after a confirmation; the refunds and their
// states are listed for everyone. What is allowed, how much is refundable and what to offer come from the server (state).
// The refund dialog stays open on a refusal, with what was typed and the reason in naira.
import { useRef, useState } from "react";
import { FormError } from "@/app/form-error";
import { lagosDateTime, naira } from "@/app/payment-display";
import { trpc } from "@/app/trpc-provider";
import type { PaymentWithTimeline } from "@/server/payments/timeline";
import { fieldsTo } from "@/app/form-submit";
import { typedAmount } from "@/server/money";
import { ConfirmDialog, DialogAnswers } from "../../confirm-dialog";
import styles from "./detail.module.css";
import { RefundAccount } from "./refund-account";

type Props = { detail: PaymentWithTimeline; canMoveMoney: boolean };
/** What the core adds to a refused call (server/trpc/init.ts): its API code and the fields at fault. */
type RefundRefusalData = { apiCode?: string; errors?: { field: string; message: string }[] };

const REFUND_STATE = {
  PENDING: "Pending at the provider",
  NEEDS_ATTENTION: "Needs the customer's account",
  PROCESSED: "Paid back",
  FAILED: "Failed",
} as const;

function useRefresh(paymentReference: string) {
  const utils = trpc.useUtils();
  return () => utils.payments.byReference.invalidate({ paymentReference });
}

function CancelButton({ paymentReference }: { paymentReference: string }) {
  const refresh = useRefresh(paymentReference);
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = trpc.payments.cancel.useMutation({ onSuccess: refresh });
  return (
    <>
      <button type="button" className="danger" disabled={cancel.isPending} onClick={() => dialog.current?.showModal()}>
        {cancel.isPending ? "Cancelling…" : "Cancel payment"}
      </button>
      <FormError message={cancel.error?.message} />
      <ConfirmDialog
        dialog={dialog}
        className={styles.dialog}
        title="Cancel this payment?"
        confirm="Yes, cancel it"
        dismiss="Keep it"
        onConfirm={() => cancel.mutate({ paymentReference })}
      >
        <h2>Cancel this payment?</h2>
        <p className="muted">The customer can no longer pay it. Money that still arrives is recorded as due for refund.</p>
      </ConfirmDialog>
    </>
  );
}

type Refund = PaymentWithTimeline["refunds"][number];

/** What became of a refund just asked for, in the words of its state now (the list beside it is polled). */
function refundSaid(amount: string, reference: string, now: Refund | undefined): string {
  const head = `Refund of ${naira(amount)} (${reference})`;
  if (now?.status === "PROCESSED") return `${head} paid back to the customer.`;
  if (now?.status === "FAILED") return `${head} failed${now.failureReason ? `: ${now.failureReason}` : ""}.`;
  return `${head} accepted; the provider pays it back shortly.`;
}

type RefundProps = { paymentReference: string; refundable: string; suggested: string; refunds: Refund[] };

/**
 * A refused refund in the merchant's words. The API's own messages stay as they are on the wire; here an amount at
 * fault is said in naira against what is refundable now (`refundable`: the page's state, fetched again after the
 * refusal), anything else as the core said it.
 */
function refusalOf(error: { message: string; data?: RefundRefusalData | null }, typed: string, refundable: string): string {
  const fields = error.data?.errors ?? [];
  const reason = fields.find((f) => f.field === "reason");
  if (fields.some((f) => f.field === "amount"))
    return error.data?.apiCode === "S15"
      ? `${naira(typed)} is more than can go back: at most ${naira(refundable)} is refundable.`
      : `Enter the amount in naira, more than ₦0.00 and at most ${naira(refundable)}, e.g. 1,000.00.`;
  return reason ? `The reason ${reason.message}.` : error.message;
}

function RefundButton({ paymentReference, refundable, suggested, refunds }: RefundProps) {
  const refresh = useRefresh(paymentReference);
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const [asked, setAsked] = useState<{ amount: string; refundReference: string } | null>(null);
  const [typed, setTyped] = useState("");
  const refund = trpc.payments.refund.useMutation({
    onSuccess: (answer) => {
      dialog.current?.close();
      setAsked({ amount: answer.refund.amount, refundReference: answer.refund.refundReference });
      return refresh();
    },
    // The dialog stays open with what was typed; what is refundable may have moved, so it is read again.
    onError: () => refresh(),
  });
  const said =
    asked &&
    refundSaid(
      asked.amount,
      asked.refundReference,
      refunds.find((r) => r.refundReference === asked.refundReference),
    );
  return (
    <>
      <button
        type="button"
        disabled={refund.isPending}
        onClick={() => {
          // Back to what is refundable now: the last refund changed it, and a typed amount must not linger.
          form.current?.reset();
          refund.reset();
          dialog.current?.showModal();
        }}
      >
        {refund.isPending ? "Refunding…" : "Refund"}
      </button>
      {said && (
        <p role="status" className={styles.said}>
          {said}
        </p>
      )}
      <dialog ref={dialog} className={styles.dialog} aria-label="Refund the customer?">
        <form
          ref={form}
          className="stack"
          onSubmit={fieldsTo((fields) => {
            const amount = typedAmount(String(fields.get("amount")));
            setAsked(null);
            setTyped(amount);
            refund.mutate({ paymentReference, amount, reason: String(fields.get("reason")) });
          })}
        >
          <h2>Refund the customer?</h2>
          <p className="muted">
            Up to {naira(refundable)} can go back. The provider that took the money pays it back; this cannot be undone.
          </p>
          <label>
            Amount (₦)
            <input name="amount" inputMode="decimal" autoComplete="off" required defaultValue={suggested} />
          </label>
          <label>
            Reason
            <input name="reason" required maxLength={200} placeholder="e.g. Out of stock" />
          </label>
          <FormError message={refund.error && refusalOf(refund.error, typed, refundable)} />
          <div className="row">
            <DialogAnswers dialog={dialog} confirm="Refund now" dismiss="Not now" danger busy={refund.isPending} />
          </div>
        </form>
      </dialog>
    </>
  );
}

export function MoneyBack({ detail, canMoveMoney }: Props) {
  const { state, refunds } = detail;
  const paymentReference = detail.payments.paymentReference;
  const acts = canMoveMoney && (state.canCancel || state.canRefund);
  if (!acts && refunds.length === 0) return null;
  return (
    <section className="card" aria-labelledby="refunds-title">
      <h2 id="refunds-title">{refunds.length ? "Refunds" : "Cancel or refund"}</h2>
      {refunds.length > 0 && (
        <ul className={styles.refunds} data-testid="refunds">
          {refunds.map((r) => (
            <li key={r.refundReference} className={styles.refund}>
              <span className={styles.refundHead}>
                <strong>{naira(r.amount)}</strong>
                <span className={`${styles.deliveryState} ${styles[`refund_${r.status}`]}`}>{REFUND_STATE[r.status]}</span>
              </span>
              <span className="muted">
                <span className="mono">{r.refundReference}</span> · {r.reason} · {lagosDateTime(r.createdAt)}
              </span>
              {r.failureReason && <span className="form-error">{r.failureReason}</span>}
              {r.status === "NEEDS_ATTENTION" && canMoveMoney && (
                <RefundAccount paymentReference={paymentReference} refundReference={r.refundReference} amount={r.amount} />
              )}
              {r.providerDidNotAnswer && (
                <span className="form-error" data-testid="refund-unanswered">
                  The provider did not answer; check at the provider. Owo will not send this refund again until the provider says it has
                  none.
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {acts && (
        <div className="row">
          {state.canCancel && <CancelButton paymentReference={paymentReference} />}
          {state.canRefund && (
            <RefundButton
              paymentReference={paymentReference}
              refundable={state.refundable}
              // Money the core advises giving back (an expired part payment, an overpayment's excess) is offered first.
              suggested={state.refundAdvised?.amount ?? state.refundable}
              refunds={refunds}
            />
          )}
        </div>
      )}
    </section>
  );
}
