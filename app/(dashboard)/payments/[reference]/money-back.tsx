"use client";
// Owners and admins call a pending payment off, or pay money back, each after a confirmation; the refunds and their
// states are listed for everyone. What is allowed and how much is refundable come from the server (state).
import { useRef, useState } from "react";
import { FormError } from "@/app/form-error";
import { lagosDateTime, naira } from "@/app/payment-display";
import { trpc } from "@/app/trpc-provider";
import type { PaymentWithTimeline } from "@/server/payments/timeline";
import { ConfirmDialog } from "../../confirm-dialog";
import styles from "./detail.module.css";
import { RefundAccount } from "./refund-account";

type Props = { detail: PaymentWithTimeline; canMoveMoney: boolean };

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

function RefundButton({ paymentReference, refundable, refunds }: { paymentReference: string; refundable: string; refunds: Refund[] }) {
  const refresh = useRefresh(paymentReference);
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const [asked, setAsked] = useState<{ amount: string; refundReference: string } | null>(null);
  const refund = trpc.payments.refund.useMutation({
    onSuccess: (answer) => {
      setAsked({ amount: answer.refund.amount, refundReference: answer.refund.refundReference });
      return refresh();
    },
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
          dialog.current?.showModal();
        }}
      >
        {refund.isPending ? "Refunding…" : "Refund"}
      </button>
      <FormError message={refund.error?.message} />
      {said && !refund.error && (
        <p role="status" className={styles.said}>
          {said}
        </p>
      )}
      <ConfirmDialog
        dialog={dialog}
        form={form}
        className={styles.dialog}
        title="Refund the customer?"
        confirm="Refund now"
        dismiss="Not now"
        onConfirm={(fields) => {
          setAsked(null);
          refund.mutate({ paymentReference, amount: String(fields.get("amount")), reason: String(fields.get("reason")) });
        }}
      >
        <h2>Refund the customer?</h2>
        <p className="muted">
          Up to {naira(refundable)} can go back. The provider that took the money pays it back; this cannot be undone.
        </p>
        <label>
          Amount (₦)
          <input name="amount" inputMode="decimal" required pattern="\d+(\.\d{1,2})?" defaultValue={refundable} />
        </label>
        <label>
          Reason
          <input name="reason" required maxLength={200} placeholder="e.g. Out of stock" />
        </label>
      </ConfirmDialog>
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
          {state.canRefund && <RefundButton paymentReference={paymentReference} refundable={state.refundable} refunds={refunds} />}
        </div>
      )}
    </section>
  );
}
