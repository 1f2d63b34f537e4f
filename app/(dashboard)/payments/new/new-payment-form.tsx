"use client";
// The dashboard's initiation form: checked with the API's own zod schema as you submit, then sent to tRPC initiatePayment.
import { TRPCClientError } from "@trpc/client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";
import { typedAmount } from "@/server/money";
import type { InitiatePaymentInput, PaymentType } from "@/server/payments/initiate-schema";
import styles from "../payments.module.css";
import { fieldWords } from "./field-words";

type Bank = { bankCode: string; bankName: string; ussdCode: string };
/** The merchant's saved defaults (Developers), used by the server when the fields are left empty. */
type Props = { banks: Bank[]; suggestedReference: string; defaultCallbackUrl: string | null; defaultRedirectUrl: string | null };

const LABEL: Record<string, string> = {
  amount: "Amount",
  bankCode: "Customer's bank",
  fullName: "Customer name",
  mobileNumber: "Mobile number",
  email: "E-mail",
  paymentReference: "Payment reference",
  callbackUrl: "Callback URL",
  redirectUrl: "Redirect URL",
};

/** What the server does with empty URL fields, in the words of API.md (tRPC). */
function whenLeftEmpty(callbackUrl: string | null, redirectUrl: string | null): string {
  const callbacks = callbackUrl ? `callbacks go to your default ${callbackUrl}` : "only your webhook endpoints get the events";
  const browser = redirectUrl ? `the customer returns to your default ${redirectUrl}` : "the customer ends on Owo's own receipt page";
  return `${browser} and ${callbacks}.`;
}

export function NewPaymentForm({ banks, suggestedReference, defaultCallbackUrl, defaultRedirectUrl }: Props) {
  const router = useRouter();
  const [channel, setChannel] = useState<PaymentType>("USSD");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const initiate = trpc.initiatePayment.useMutation();

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setMessage(null);
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const common = {
      amount: typedAmount(text("amount")),
      fullName: text("fullName"),
      mobileNumber: text("mobileNumber").replace(/[\s-]/g, ""),
      email: text("email"),
      currency: "NGN" as const,
      country: "NG" as const,
      paymentReference: text("paymentReference"),
      // Left empty, they are not sent: the server uses the saved defaults, else Owo's receipt page (API.md tRPC).
      ...(text("callbackUrl") ? { callbackUrl: text("callbackUrl") } : {}),
      ...(text("redirectUrl") ? { redirectUrl: text("redirectUrl") } : {}),
    };
    const bank = text("bankCode");
    // No bank chosen is sent as no bankCode, so the schema says "required" rather than "unknown code".
    const input = (
      channel === "USSD" ? { ...common, paymentType: "USSD", ...(bank ? { bankCode: bank } : {}) } : { ...common, paymentType: "TRANSFER" }
    ) as InitiatePaymentInput;
    // The server checks it (one schema, server/payments/initiate-schema.ts): the browser carries none of its code.
    setErrors({});
    try {
      const issued = await initiate.mutateAsync(input);
      router.push(`/payments/${encodeURIComponent(issued.paymentReference ?? input.paymentReference)}?created=1`);
    } catch (err) {
      const fields =
        err instanceof TRPCClientError ? (err.data as { errors?: { field: string; message: string }[] } | undefined)?.errors : undefined;
      if (fields?.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, fieldWords(f.field, f.message)])));
      else setMessage(err instanceof Error ? err.message : "Could not create the payment");
    }
  }

  const fieldError = (name: string) =>
    errors[name] && (
      <span className="field-error" id={`${name}-error`}>
        {LABEL[name]} {errors[name]}
      </span>
    );
  const invalid = (name: string) => ({
    "aria-invalid": Boolean(errors[name]),
    "aria-describedby": errors[name] ? `${name}-error` : undefined,
  });
  const input = (name: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label>
      {LABEL[name]}
      <input name={name} {...invalid(name)} {...props} />
      {fieldError(name)}
    </label>
  );

  return (
    <form className={`card ${styles.form}`} onSubmit={submit} noValidate>
      <fieldset className={styles.channels}>
        <legend>How will the customer pay?</legend>
        <label className={styles.channel}>
          <input type="radio" name="paymentType" value="USSD" checked={channel === "USSD"} onChange={() => setChannel("USSD")} />
          USSD
          <span>A dial code for their bank; works on any phone. Up to ₦1,000,000.</span>
        </label>
        <label className={styles.channel}>
          <input
            type="radio"
            name="paymentType"
            value="TRANSFER"
            checked={channel === "TRANSFER"}
            onChange={() => setChannel("TRANSFER")}
          />
          Bank transfer
          <span>An account opened for this payment; from any bank app. Up to ₦10,000,000.</span>
        </label>
      </fieldset>

      <div className={styles.pair}>
        <label>
          {LABEL.amount}
          <span className={styles.amountInput}>
            <input name="amount" inputMode="decimal" placeholder="1500.00" autoComplete="off" {...invalid("amount")} />
          </span>
          {fieldError("amount")}
        </label>
        {channel === "USSD" && (
          <label>
            {LABEL.bankCode}
            <select name="bankCode" defaultValue="" {...invalid("bankCode")}>
              <option value="" disabled>
                Choose the customer&apos;s bank
              </option>
              {banks.map((b) => (
                <option key={b.bankCode} value={b.bankCode}>
                  {b.bankName} ({b.ussdCode})
                </option>
              ))}
            </select>
            {fieldError("bankCode")}
          </label>
        )}
      </div>

      <div className={styles.pair}>
        {input("fullName", { autoComplete: "off", placeholder: "Ada Obi" })}
        {input("mobileNumber", { type: "tel", inputMode: "numeric", autoComplete: "off", placeholder: "08012345678" })}
      </div>
      <div className={styles.pair}>
        {input("email", { type: "email", autoComplete: "off", placeholder: "ada@example.com" })}
        {input("paymentReference", { defaultValue: suggestedReference, spellCheck: false })}
      </div>

      <details className={styles.advanced} open={Boolean(errors.callbackUrl || errors.redirectUrl)}>
        <summary>Callback and redirect (optional)</summary>
        <div className={styles.moreBody}>
          <p className={styles.hint} data-testid="url-defaults">
            Owo POSTs the signed result to the callback URL and sends the customer&apos;s browser to the redirect URL when the payment ends.
            Left empty, {whenLeftEmpty(defaultCallbackUrl, defaultRedirectUrl)} Your defaults are on <a href="/developers">Developers</a>.
          </p>
          {input("callbackUrl", { type: "url", placeholder: defaultCallbackUrl ?? "https://shop.example.ng/owo/callback" })}
          {input("redirectUrl", { type: "url", placeholder: defaultRedirectUrl ?? "https://shop.example.ng/thanks" })}
        </div>
      </details>

      {Object.keys(errors).length === 0 && <FormError message={message} />}
      <div className="row">
        <button type="submit" disabled={initiate.isPending}>
          {initiate.isPending ? "Creating…" : channel === "USSD" ? "Create dial code" : "Open account"}
        </button>
        <a href="/payments" className="button secondary">
          Cancel
        </a>
      </div>
    </form>
  );
}
