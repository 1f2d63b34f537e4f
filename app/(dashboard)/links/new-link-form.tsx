"use client";
// Creating a payment link: the fields of createLinkInput, errors shown beside the field the server names.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";
import type { PaymentType } from "@/server/payments/initiate-schema";
import { CopyUrl } from "./link-controls";
import styles from "./links.module.css";

const LABELS: Record<string, string> = {
  title: "Title",
  description: "Description",
  amount: "Amount",
  minAmount: "Minimum",
  maxAmount: "Maximum",
  channels: "Channels",
  callbackUrl: "Callback URL",
  redirectUrl: "Redirect URL",
};

export function NewLinkForm({ defaults }: { defaults: { callbackUrl: string | null; redirectUrl: string | null } }) {
  const router = useRouter();
  const [fixed, setFixed] = useState(true);
  const [created, setCreated] = useState<{ url: string; title: string; slug: string; qrSvg: string } | null>(null);
  const create = trpc.links.create.useMutation({
    onSuccess: (link) => {
      setCreated({ url: link.url, title: link.title, slug: link.slug, qrSvg: link.qrSvg });
      router.refresh();
    },
  });
  const errors = Object.fromEntries((create.error?.data?.errors ?? []).map((e) => [e.field, e.message]));

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formElement = e.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "");
    create.mutate(
      {
        title: text("title"),
        description: text("description"),
        amount: fixed ? text("amount") : "",
        minAmount: fixed ? "" : text("minAmount"),
        maxAmount: fixed ? "" : text("maxAmount"),
        channels: form.getAll("channels").map(String) as PaymentType[],
        singleUse: form.get("singleUse") === "on",
        callbackUrl: text("callbackUrl"),
        redirectUrl: text("redirectUrl"),
      },
      { onSuccess: () => formElement.reset() },
    );
  }

  const error = (name: string) => errors[name] && <span className="field-error">{`${LABELS[name]} ${errors[name]}`}</span>;
  const input = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label>
      {label}
      <input name={name} aria-invalid={Boolean(errors[name])} {...props} />
      {error(name)}
    </label>
  );

  return (
    <form onSubmit={submit} className="stack" noValidate>
      <div className={styles.formGrid}>
        {input("title", "Title", { required: true, maxLength: 100, placeholder: "e.g. Chocolate cake, 8 inch" })}
        <fieldset className={styles.fieldset}>
          <legend>Amount</legend>
          <label className={styles.choice}>
            <input type="radio" name="amountKind" checked={fixed} onChange={() => setFixed(true)} /> Fixed amount
          </label>
          <label className={styles.choice}>
            <input type="radio" name="amountKind" checked={!fixed} onChange={() => setFixed(false)} /> Customer enters the amount
          </label>
        </fieldset>
        {fixed ? (
          input("amount", "Amount (₦)", { inputMode: "decimal", placeholder: "15000.00" })
        ) : (
          <>
            {input("minAmount", "Minimum (₦, optional)", { inputMode: "decimal", placeholder: "100.00" })}
            {input("maxAmount", "Maximum (₦, optional)", { inputMode: "decimal", placeholder: "1000000.00" })}
          </>
        )}
      </div>
      <label>
        Description (optional)
        <textarea name="description" rows={2} maxLength={500} aria-invalid={Boolean(errors.description)} />
        {error("description")}
      </label>
      <div className={styles.formGrid}>
        <fieldset className={styles.fieldset}>
          <legend>Customers may pay by</legend>
          <label className={styles.choice}>
            <input type="checkbox" name="channels" value="TRANSFER" defaultChecked /> Bank transfer
          </label>
          <label className={styles.choice}>
            <input type="checkbox" name="channels" value="USSD" defaultChecked /> USSD
          </label>
          {error("channels")}
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend>Use</legend>
          <label className={styles.choice}>
            <input type="checkbox" name="singleUse" /> Single use: closes after the first successful payment
          </label>
        </fieldset>
      </div>
      <details>
        <summary>Callback and redirect URLs</summary>
        <div className={styles.formGrid} style={{ marginTop: "0.75rem" }}>
          {input("callbackUrl", "Callback URL", {
            type: "url",
            placeholder: defaults.callbackUrl ?? "None: only your webhook endpoints are told",
          })}
          {input("redirectUrl", "Redirect URL", { type: "url", placeholder: defaults.redirectUrl ?? "Owo's own thank-you page" })}
        </div>
        <p className="muted">Left empty, the link uses your defaults from the Developers page.</p>
      </details>
      {Object.keys(errors).length === 0 && <FormError message={create.error?.message} />}
      <div className="row">
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create link"}
        </button>
      </div>
      {created && (
        <div className={styles.created} role="status">
          <p style={{ marginTop: 0 }}>
            <strong>{created.title}</strong> is ready. Share this address or its QR code:
          </p>
          <div className={styles.createdShare}>
            {/* Drawn by the server from Owo's own URL: no user text reaches the SVG. */}
            <div
              className={styles.createdQr}
              role="img"
              aria-label={`QR code for ${created.url}`}
              dangerouslySetInnerHTML={{ __html: created.qrSvg }}
            />
            <div className="stack">
              <CopyUrl url={created.url} label="New link URL" />
              <a
                className="button secondary"
                href={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(created.qrSvg)}`}
                download={`owo-link-${created.slug}.svg`}
              >
                Download QR code
              </a>
            </div>
          </div>
        </div>
      )}
    </form>
  );
}
