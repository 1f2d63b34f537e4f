"use client";
// The customer's form: the only client code on the pay page. USSD asks for the bank; the rest is plain inputs.
import { useState, useTransition } from "react";
import { FormError } from "@/app/form-error";
import type { PaymentType } from "@/server/payments/initiate-schema";
import { payLink } from "./actions";
import styles from "./pay.module.css";

type Props = {
  slug: string;
  amountLabel: string | null;
  range: { min: string; max: string } | null;
  channels: PaymentType[];
  banks: { bankCode: string; bankName: string }[];
};

const LABELS: Record<string, string> = {
  fullName: "Full name",
  email: "E-mail",
  mobileNumber: "Phone number",
  amount: "Amount",
  paymentType: "Payment method",
  bankCode: "Your bank",
};

export function PayForm({ slug, amountLabel, range, channels, banks }: Props) {
  const [channel, setChannel] = useState<PaymentType>(channels.length === 1 && channels[0] ? channels[0] : "TRANSFER");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  /** A field's error goes once the customer starts correcting it. */
  function forget(name: string) {
    if (errors[name]) setErrors(Object.fromEntries(Object.entries(errors).filter(([k]) => k !== name)));
  }

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = Object.fromEntries([...new FormData(e.currentTarget)].map(([k, v]) => [k, String(v)]));
    startTransition(async () => {
      const res = await payLink(slug, form);
      if (res.ok) {
        window.location.assign(res.checkoutUrl);
        return;
      }
      setErrors(res.errors);
      // With fields named, the errors beside them say it all; the summary is for refusals of the whole payment.
      setMessage(Object.keys(res.errors).length ? null : res.message);
    });
  }

  const error = (name: string) =>
    errors[name] ? (
      <span className="field-error" id={`${name}-error`}>
        {`${LABELS[name] ?? name} ${errors[name]}`}
      </span>
    ) : null;
  const field = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement>) => (
    <label>
      {label}
      <input
        name={name}
        required
        aria-invalid={Boolean(errors[name])}
        aria-describedby={errors[name] ? `${name}-error` : undefined}
        {...props}
      />
      {error(name)}
    </label>
  );

  return (
    <form onSubmit={submit} onInput={(e) => forget((e.target as HTMLInputElement).name)} className="stack" noValidate>
      {range &&
        field("amount", "Amount (₦)", {
          inputMode: "decimal",
          placeholder: `${range.min} to ${range.max}`,
          autoComplete: "transaction-amount",
        })}
      {field("fullName", "Full name", { autoComplete: "name", maxLength: 100 })}
      {field("email", "E-mail", { type: "email", autoComplete: "email", inputMode: "email" })}
      {field("mobileNumber", "Phone number", { type: "tel", autoComplete: "tel", inputMode: "tel", placeholder: "08012345678" })}
      <fieldset className={styles.channels}>
        <legend>How would you like to pay?</legend>
        {channels.map((c) => (
          <label key={c} className={styles.channel}>
            <input type="radio" name="paymentType" value={c} checked={channel === c} onChange={() => setChannel(c)} />
            <span>
              {c === "TRANSFER" ? "Bank transfer" : "USSD"}
              <span className={styles.channelHint}>{c === "TRANSFER" ? "From any bank app" : "Dial a code, no data"}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {error("paymentType")}
      {channel === "USSD" && (
        <label>
          Your bank
          <select name="bankCode" required defaultValue="" aria-invalid={Boolean(errors.bankCode)}>
            <option value="" disabled>
              Choose your bank
            </option>
            {banks.map((b) => (
              <option key={b.bankCode} value={b.bankCode}>
                {b.bankName}
              </option>
            ))}
          </select>
          {error("bankCode")}
        </label>
      )}
      <FormError message={message} />
      <button type="submit" className={styles.pay} disabled={pending}>
        {pending ? "Starting payment…" : amountLabel ? `Pay ${amountLabel}` : "Continue to pay"}
      </button>
    </form>
  );
}
