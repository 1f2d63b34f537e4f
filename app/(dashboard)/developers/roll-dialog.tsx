"use client";
// Rolling a secret (API key or signing secret): a confirmation dialog with the grace period for the old one.
import { useRef } from "react";
import styles from "./developers.module.css";

const GRACE = [
  { seconds: 0, text: "Immediately" },
  { seconds: 3600, text: "After 1 hour" },
  { seconds: 86400, text: "After 24 hours" },
];

type Props = { label: string; title: string; explain: string; pending: boolean; onConfirm: (graceSeconds: number) => void };

export function RollDialog({ label, title, explain, pending, onConfirm }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className="secondary" disabled={pending} onClick={() => dialog.current?.showModal()}>
        {pending ? "Rolling…" : label}
      </button>
      <dialog ref={dialog} className={styles.dialog} aria-label={title}>
        <form
          method="dialog"
          className="stack"
          onSubmit={(e) => {
            const form = new FormData(e.currentTarget);
            onConfirm(Number(form.get("graceSeconds")));
          }}
        >
          <h2 style={{ marginTop: 0 }}>{title}</h2>
          <p className="muted" style={{ margin: 0 }}>
            {explain}
          </p>
          <label>
            The old one stops working
            <select name="graceSeconds" defaultValue="3600">
              {GRACE.map((g) => (
                <option key={g.seconds} value={g.seconds}>
                  {g.text}
                </option>
              ))}
            </select>
          </label>
          <div className="row">
            <button type="submit" className="danger">
              Roll now
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** A freshly issued secret: shown here once, never again. */
export function ShownOnce({ secret, what }: { secret: string; what: string }) {
  return (
    <div className={styles.once} role="status">
      <strong>Your new {what}. Copy it now: Owo shows it only once.</strong>
      <code className={styles.secret} data-testid="new-secret">
        {secret}
      </code>
    </div>
  );
}
