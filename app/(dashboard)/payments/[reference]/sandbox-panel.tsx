"use client";
// Test mode only: play the customer's bank. Each button sends the sandbox bank's signed notice, exactly as a real bank would.
import { useState } from "react";
import { naira } from "@/app/payment-display";
import { trpc } from "@/app/trpc-provider";
import type { PaymentWithTimeline } from "@/server/payments/timeline";
import type { PaymentState } from "@/server/payments/state";
import styles from "./detail.module.css";

export function SandboxPanel({ payment, state }: { payment: PaymentWithTimeline["payments"]; state: PaymentState }) {
  const { open, sandboxTransfer } = state;
  const utils = trpc.useUtils();
  const [said, setSaid] = useState<string | null>(null);
  const simulate = trpc.sandbox.simulate.useMutation({
    onSuccess: (p) => {
      setSaid(`The bank's notice was applied: the payment is now ${p.status.toLowerCase().replace("_", " ")}.`);
      return utils.payments.byReference.invalidate({ paymentReference: payment.paymentReference });
    },
    onError: (e) => setSaid(e.message),
  });
  const half = sandboxTransfer.half;
  const run = (outcome: "pay" | "decline", amount?: string) => {
    setSaid(null);
    simulate.mutate({ paymentReference: payment.paymentReference, outcome, ...(amount ? { amount } : {}) });
  };

  return (
    <section className={`card ${styles.sandbox}`} aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Sandbox bank</h2>
      <p className="muted">
        {open
          ? "Act as the customer's bank to see this payment move, and your callback fire."
          : "This payment has ended: money sent now is recorded as due for refund, as with a real bank."}
      </p>
      <div className={styles.sandboxButtons}>
        {payment.paymentType === "USSD" ? (
          <>
            <button type="button" onClick={() => run("pay")} disabled={simulate.isPending}>
              Customer pays {naira(payment.amount)}
            </button>
            {open && (
              <button type="button" className="danger" onClick={() => run("decline")} disabled={simulate.isPending}>
                Bank declines
              </button>
            )}
          </>
        ) : (
          <>
            <button type="button" onClick={() => run("pay")} disabled={simulate.isPending}>
              {`Transfer ${naira(sandboxTransfer.full)}${sandboxTransfer.again ? " again" : ""}`}
            </button>
            {half && (
              <button type="button" className="secondary" onClick={() => run("pay", half)} disabled={simulate.isPending}>
                Under-pay half ({naira(half)})
              </button>
            )}
          </>
        )}
      </div>
      {simulate.isPending && <p className="muted">Sending the bank&apos;s notice…</p>}
      {said && (
        <p role="status" className={simulate.isError ? "form-error" : styles.said}>
          {said}
        </p>
      )}
    </section>
  );
}
