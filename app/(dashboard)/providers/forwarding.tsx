"use client";
// A provider account's forwarding URL (where notices for the merchant's other sales on the account go, unchanged) and
// its recent forwards with their result.
import { useRouter } from "next/navigation";
import { FormError } from "@/app/form-error";
import { fieldsTo } from "@/app/form-submit";
import { lagosDateTime } from "@/app/payment-display";
import { trpc } from "@/app/trpc-provider";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import styles from "./forwarding.module.css";
import { SaveRow } from "./save-row";

type Forward = inferRouterOutputs<AppRouter>["providers"]["forwards"]["forwards"][number];

const STATE: Record<Forward["status"], string> = { pending: "Retrying", delivered: "Delivered", failed: "Failed", cancelled: "Stopped" };

function result(f: Forward): string {
  const last = f.lastStatusCode !== null ? `HTTP ${f.lastStatusCode}` : (f.lastError ?? "not tried yet");
  const tries = f.attemptCount === 1 ? "1 attempt" : `${f.attemptCount} attempts`;
  const next = f.nextAttemptAt !== null ? ` · next ${lagosDateTime(new Date(f.nextAttemptAt).toISOString())}` : "";
  return `${last} · ${tries}${next}`;
}

export function ForwardingUrl({ providerId, provider, forwardUrl }: { providerId: string; provider: string; forwardUrl: string | null }) {
  const router = useRouter();
  const save = trpc.providers.setForwardUrl.useMutation({ onSuccess: () => router.refresh() });
  const fieldError = save.error?.data?.errors.find((e) => e.field === "forwardUrl")?.message;
  return (
    <form
      className={`stack ${styles.form}`}
      data-testid="forward-url-form"
      onSubmit={fieldsTo((form) => {
        const url = String(form.get("forwardUrl") ?? "").trim();
        save.mutate({ providerId, forwardUrl: url === "" ? null : url });
      })}
    >
      <label>
        Notices for your other {provider} sales go to
        <input
          name="forwardUrl"
          type="url"
          defaultValue={forwardUrl ?? ""}
          placeholder="https://shop.example.ng/webhooks/paystack"
          aria-invalid={Boolean(fieldError)}
        />
        {fieldError && <span className="field-error">{fieldError}</span>}
      </label>
      <SaveRow save={save} label="Save forwarding URL" />
      <FormError message={save.error && !fieldError ? save.error.message : undefined} />
    </form>
  );
}

export function RecentForwards({ forwards }: { forwards: Forward[] }) {
  if (forwards.length === 0) return <p className="muted">No notice forwarded yet.</p>;
  return (
    <ul className={styles.forwards} data-testid="forwards">
      {forwards.map((f) => (
        <li key={f.deliveryId} className={styles.forward} data-testid="forward">
          <div className={styles.head}>
            <span className="mono">{f.reference ?? f.eventId}</span>
            <strong className={f.status === "delivered" ? undefined : "field-error"}>{STATE[f.status]}</strong>
          </div>
          <span className="muted">
            {lagosDateTime(new Date(f.createdAt).toISOString())} · {result(f)}
          </span>
        </li>
      ))}
    </ul>
  );
}
