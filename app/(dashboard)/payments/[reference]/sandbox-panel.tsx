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

  const busy = simulate.isPending;
  return (
    <section className={`card ${styles.sandbox} ${open ? styles.sandboxOpen : ""}`} aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Sandbox bank</h2>
      {open ? (
        <>
          <p className="muted">Act as the customer&apos;s bank to see this payment move, and your callback fire.</p>
          <div className={styles.sandboxButtons}>
            {payment.paymentType === "USSD" ? (
              <>
                <button type="button" onClick={() => run("pay")} disabled={busy}>
                  Customer pays {naira(payment.amount)}
                </button>
                <button type="button" className="danger" onClick={() => run("decline")} disabled={busy}>
                  Bank declines
                </button>
              </>
            ) : (
              <>
                <button type="button" onClick={() => run("pay")} disabled={busy}>
                  Transfer {naira(sandboxTransfer.full)}
                </button>
                {half && (
                  <button type="button" className="secondary" onClick={() => run("pay", half)} disabled={busy}>
                    Under-pay half ({naira(half)})
                  </button>
                )}
              </>
            )}
          </div>
        </>
      ) : (
        <>
          {/* Ended: nothing to pay. Late money is the one thing left to try, and it is the customer's to get back. */}
          <p className="muted">
            This payment has ended. Money the bank sends now does not pay for it: it is recorded as arrived late, for you to refund.
          </p>
          <div className={styles.sandboxButtons}>
            <button type="button" className="secondary" onClick={() => run("pay")} disabled={busy}>
              Send {naira(payment.paymentType === "USSD" ? payment.amount : sandboxTransfer.full)} late
            </button>
          </div>
        </>
      )}
      {simulate.isPending && <p className="muted">Sending the bank&apos;s notice…</p>}
      {said && (
        <p role="status" className={simulate.isError ? "form-error" : styles.said}>
          {said}
        </p>
      )}
    </section>
  );
}
