"use client";
// A refund the provider cannot pay back without the customer's bank account (NEEDS_ATTENTION): an owner or admin gives
// the account — a bank from the provider's own list (fintech banks included) and a 10-digit NUBAN, checked here as the
// server checks it — or gives the refund up, after a confirmation. The server decides; this form only asks and shows.
import { useRef, useState } from "react";
import { FormError } from "@/app/form-error";
import { naira } from "@/app/payment-display";
import { trpc } from "@/app/trpc-provider";
import { isNubanAt } from "@/server/providers/nuban";
import { ConfirmDialog } from "../../confirm-dialog";
import styles from "./refund-account.module.css";

type Props = { paymentReference: string; refundReference: string; amount: string };

export function RefundAccount({ paymentReference, refundReference, amount }: Props) {
  const utils = trpc.useUtils();
  const refresh = () => utils.payments.byReference.invalidate({ paymentReference });
  const banks = trpc.payments.refundBanks.useQuery({ paymentReference, refundReference }, { staleTime: 10 * 60_000 });
  const give = trpc.payments.refundAccount.useMutation({ onSuccess: refresh });
  const giveUp = trpc.payments.cancelRefund.useMutation({ onSuccess: refresh });
  const [bankCode, setBankCode] = useState("");
  const [accountNumber, setAccountNumber] = useState("");
  const [touched, setTouched] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const bank = banks.data?.find((b) => b.bankCode === bankCode);
  const numberWrong =
    accountNumber.length !== 10 || !/^\d+$/.test(accountNumber)
      ? "Enter the customer's 10-digit account number"
      : bank && !isNubanAt(bank.bankCode, accountNumber)
        ? `${accountNumber} is not a valid account number at ${bank.bankName}: check it with the customer`
        : null;
  const busy = give.isPending || giveUp.isPending;

  return (
    <div className={styles.attention} data-testid="refund-account">
      <p className={styles.why}>
        The provider cannot pay {naira(amount)} back by itself (a USSD debit or a transfer has no card to return to). Ask the customer for
        their bank account, or give this refund up.
      </p>
      <form
        className={styles.form}
        aria-label={`Customer's account for refund ${refundReference}`}
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!bank || numberWrong) return;
          give.mutate({ paymentReference, refundReference, bankCode, accountNumber });
        }}
      >
        <label>
          Customer&apos;s bank
          <select required value={bankCode} onChange={(e) => setBankCode(e.target.value)} disabled={!banks.data}>
            <option value="">{banks.isLoading ? "Loading the provider's banks…" : "Choose the bank"}</option>
            {banks.data?.map((b) => (
              <option key={b.bankCode} value={b.bankCode}>
                {b.bankName}
              </option>
            ))}
          </select>
        </label>
        <label>
          Account number
          <input
            inputMode="numeric"
            autoComplete="off"
            maxLength={10}
            placeholder="10 digits"
            value={accountNumber}
            onChange={(e) => setAccountNumber(e.target.value.replace(/\s/g, ""))}
            onBlur={() => setTouched(accountNumber.length > 0)}
            aria-invalid={touched && numberWrong !== null}
            aria-describedby={`account-hint-${refundReference}`}
          />
        </label>
        <div className={styles.actions}>
          <button type="submit" disabled={busy || !banks.data}>
            {give.isPending ? "Sending…" : "Send the refund to this account"}
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => dialog.current?.showModal()}>
            Give up this refund
          </button>
        </div>
        <p id={`account-hint-${refundReference}`} className={touched && numberWrong ? "form-error" : "muted"}>
          {touched && numberWrong ? numberWrong : "Owo checks the number's NUBAN check digit before the provider is asked."}
        </p>
      </form>
      <FormError message={banks.error?.message ?? give.error?.message ?? giveUp.error?.message} />
      <ConfirmDialog
        dialog={dialog}
        className={styles.dialog}
        title="Give up this refund?"
        confirm="Yes, give it up"
        dismiss="Keep it"
        onConfirm={() => giveUp.mutate({ paymentReference, refundReference })}
      >
        <h2>Give up this refund?</h2>
        <p className="muted">
          It ends Failed and {naira(amount)} is refundable again. The provider still holds it as needing attention until you close it there.
        </p>
      </ConfirmDialog>
    </div>
  );
}
