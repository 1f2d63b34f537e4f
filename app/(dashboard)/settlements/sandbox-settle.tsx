"use client";
// Test mode: the sandbox bank settles now, with any of the faults a real provider's settlement can carry (API.md
// "Settlements"), so a finance team can rehearse every exception before going live.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { trpc } from "@/app/trpc-provider";
import styles from "../books.module.css";
import form from "./sandbox-settle.module.css";

const AMOUNT_FAULTS = [
  ["shortBy", "Pay short by ₦"],
  ["feeBy", "Charge more fee on the first line ₦"],
  ["grossBy", "Report the first line's gross higher ₦"],
  ["adjustment", "Deduct stamp duty ₦"],
] as const;

export function SandboxSettle() {
  const router = useRouter();
  const settle = trpc.sandbox.settle.useMutation({ onSuccess: (s) => router.push(`/settlements/${encodeURIComponent(s.settlementId)}`) });
  const [faults, setFaults] = useState<Record<string, string>>({});
  const [unknownLine, setUnknownLine] = useState(false);
  const [omit, setOmit] = useState("");

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const amounts = Object.fromEntries(Object.entries(faults).filter(([, v]) => v.trim() !== ""));
    const omitted = omit
      .split(/[\s,]+/)
      .map((r) => r.trim())
      .filter(Boolean);
    settle.mutate({ ...amounts, ...(unknownLine ? { unknownLine } : {}), ...(omitted.length ? { omit: omitted } : {}) });
  }

  const fieldError = (name: string) => settle.error?.data?.errors?.find((f) => f.field === name || f.field.startsWith(`${name}.`));
  return (
    <form className={`card ${form.sandbox}`} onSubmit={submit} data-testid="sandbox-settle">
      <div className={form.sandboxHead}>
        <div>
          <strong>Sandbox bank</strong>
          <p className="muted">Settles everything it holds for you now, today included. Faults rehearse what real providers get wrong.</p>
        </div>
        <button type="submit" disabled={settle.isPending}>
          {settle.isPending ? "Settling…" : "Settle now"}
        </button>
      </div>
      <details>
        <summary>Faults</summary>
        <div className={styles.filters}>
          {AMOUNT_FAULTS.map(([name, label]) => (
            <label key={name} className={styles.filter}>
              {label}
              <input
                name={name}
                inputMode="decimal"
                placeholder="0.00"
                value={faults[name] ?? ""}
                onChange={(e) => setFaults({ ...faults, [name]: e.target.value })}
                aria-invalid={Boolean(fieldError(name))}
              />
              {fieldError(name) && <span className="field-error">{fieldError(name)?.message}</span>}
            </label>
          ))}
          <label className={styles.filter}>
            Leave out payments (references)
            <input name="omit" value={omit} onChange={(e) => setOmit(e.target.value)} aria-invalid={Boolean(fieldError("omit"))} />
            {fieldError("omit") && <span className="field-error">{fieldError("omit")?.message}</span>}
          </label>
          <label className={styles.check}>
            <input type="checkbox" checked={unknownLine} onChange={(e) => setUnknownLine(e.target.checked)} />
            Add a line for no Owo payment
          </label>
        </div>
      </details>
      {settle.error && !settle.error.data?.errors?.length && <p className="form-error">{settle.error.message}</p>}
    </form>
  );
}
