"use client";
// Small interactive bits of the links pages: copy a share URL, switch a link off or on.
import { useRouter } from "next/navigation";
import { CopyButton } from "@/app/copy-button";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";
import styles from "./links.module.css";

/** The address in a read-only field (easy to select on a phone) beside a copy button. */
export function CopyUrl({ url, label = "Payment link URL" }: { url: string; label?: string }) {
  return (
    <div className={styles.url}>
      <input readOnly value={url} aria-label={label} onFocus={(e) => e.currentTarget.select()} />
      <CopyButton value={url} />
    </div>
  );
}

export function ActiveToggle({ id, active }: { id: string; active: boolean }) {
  const router = useRouter();
  const toggle = trpc.links.setActive.useMutation({ onSuccess: () => router.refresh() });
  return (
    <div className="stack" style={{ justifyItems: "start" }}>
      <button
        type="button"
        className={active ? "danger" : undefined}
        disabled={toggle.isPending}
        onClick={() => {
          if (active && !window.confirm("Deactivate this link? Customers opening it will see that it is no longer available.")) return;
          toggle.mutate({ id, active: !active });
        }}
      >
        {active ? "Deactivate link" : "Activate link again"}
      </button>
      <FormError message={toggle.error?.message} />
    </div>
  );
}
