"use client";
// A standard-checkout payment's first step on the customer's phone: USSD from their bank, or a bank transfer.
// The choice is issued at once for this same payment, and the page then shows the code or account.
import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import type { CheckoutStatus } from "@/server/payments/checkout";
import styles from "./checkout.module.css";

type Choose = (choice: { paymentType: "USSD" | "TRANSFER"; bankCode?: string }) => Promise<CheckoutStatus>;

export function ChannelChooser({
  offer,
  choose,
  onChosen,
}: {
  offer: NonNullable<CheckoutStatus["offer"]>;
  choose: Choose;
  onChosen: (view: CheckoutStatus) => void;
}) {
  const [bankCode, setBankCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function pick(choice: Parameters<Choose>[0]) {
    setBusy(true);
    setProblem(null);
    try {
      onChosen(await choose(choice));
    } catch (e) {
      setProblem(e instanceof TRPCClientError ? e.message : "Something went wrong; try again.");
      setBusy(false);
    }
  }

  return (
    <section className={styles.how} aria-labelledby="choose-title">
      <h2 id="choose-title" className={styles.chooseTitle}>
        How would you like to pay?
      </h2>
      {offer.ussdBanks.length > 0 && (
        <form
          className={styles.option}
          onSubmit={(e) => {
            e.preventDefault();
            if (bankCode) void pick({ paymentType: "USSD", bankCode });
          }}
        >
          <label htmlFor="ussd-bank" className={styles.optionTitle}>
            USSD: dial a code from your bank&apos;s phone number
          </label>
          <select id="ussd-bank" value={bankCode} onChange={(e) => setBankCode(e.target.value)} required disabled={busy}>
            <option value="">Choose your bank</option>
            {offer.ussdBanks.map((b) => (
              <option key={b.bankCode} value={b.bankCode}>
                {b.bankName}
              </option>
            ))}
          </select>
          <button type="submit" className={styles.wide} disabled={busy || !bankCode}>
            Pay with USSD
          </button>
        </form>
      )}
      <div className={styles.option}>
        <p className={styles.optionTitle}>Bank transfer: from any bank app</p>
        <button type="button" className={`secondary ${styles.wide}`} disabled={busy} onClick={() => void pick({ paymentType: "TRANSFER" })}>
          Pay by bank transfer
        </button>
      </div>
      {problem && (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      )}
    </section>
  );
}
