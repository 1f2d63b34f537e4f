"use client";
// The fee schedule the merchant agreed with a provider account (API.md "Fees"): what the live fee quote charges for
// it, and what each recorded fee is held to (a fee_mismatch when they differ). Amounts are typed as naira text and
// judged by the server, so the page and the CLI refuse the same things in the same words.
import { useRouter } from "next/navigation";
import { FormError } from "@/app/form-error";
import { fieldsTo } from "@/app/form-submit";
import { naira } from "@/app/payment-display";
import { trpc } from "@/app/trpc-provider";
import type { FeeScheduleView } from "@/server/books/fee-schedules";
import styles from "./agreed-fees.module.css";
import { SaveRow } from "./save-row";

const FIELDS = [
  { name: "percent", label: "Percent of each payment", placeholder: "1.5" },
  { name: "flat", label: "Flat fee (₦)", placeholder: "100" },
  { name: "flatWaivedUnder", label: "Flat fee waived under (₦)", placeholder: "2500" },
  { name: "cap", label: "Fee cap (₦, empty: none)", placeholder: "2000" },
] as const;

/** "1.50% + ₦100.00 from ₦2,500.00, capped at ₦2,000.00", in the words a merchant reads a provider's price list in. */
function described(f: FeeScheduleView): string {
  const flat = f.flat === "0.00" ? "" : ` + ${naira(f.flat)}${f.flatWaivedUnder === "0.00" ? "" : ` from ${naira(f.flatWaivedUnder)}`}`;
  return `${f.percent}%${flat}, ${f.cap === null ? "no cap" : `capped at ${naira(f.cap)}`}`;
}

export function AgreedFees({ providerId, provider, fees }: { providerId: string; provider: string; fees: FeeScheduleView | null }) {
  const router = useRouter();
  const save = trpc.providers.setFees.useMutation({ onSuccess: () => router.refresh() });
  const errors = new Map((save.error?.data?.errors ?? []).map((e) => [e.field, e.message]));
  const shown = fees ?? { percent: "", flat: "", flatWaivedUnder: "", cap: "" };
  return (
    <form
      className={`stack ${styles.form}`}
      data-testid="agreed-fees-form"
      onSubmit={fieldsTo((form) => {
        const value = (name: string) => String(form.get(name) ?? "").trim();
        save.mutate({
          providerId,
          fees: {
            percent: value("percent"),
            ...(value("flat") && { flat: value("flat") }),
            ...(value("flatWaivedUnder") && { flatWaivedUnder: value("flatWaivedUnder") }),
            cap: value("cap") || null,
          },
        });
      })}
    >
      <p data-testid="agreed-fees" className={fees ? undefined : "muted"}>
        {fees
          ? described(fees)
          : `None set: the live fee quote leaves this account out, and ${provider}'s fees are not checked against an agreement.`}
      </p>
      <div className={styles.fields}>
        {FIELDS.map((f) => (
          <label key={f.name}>
            {f.label}
            <input
              name={f.name}
              inputMode="decimal"
              autoComplete="off"
              defaultValue={shown[f.name] ?? ""}
              placeholder={f.placeholder}
              aria-invalid={errors.has(f.name)}
            />
            {errors.has(f.name) && <span className="field-error">{`${f.label.replace(/ \(.*/, "")} ${errors.get(f.name)}`}</span>}
          </label>
        ))}
      </div>
      <SaveRow save={save} label="Save agreed fees">
        {fees && (
          <button type="button" className="secondary" disabled={save.isPending} onClick={() => save.mutate({ providerId, fees: null })}>
            Remove
          </button>
        )}
      </SaveRow>
      <FormError message={save.error && errors.size === 0 ? save.error.message : undefined} />
    </form>
  );
}
