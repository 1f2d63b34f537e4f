"use client";
// Rolling a secret (API key or signing secret): a confirmation dialog with the grace period for the old one.
import { useRef } from "react";
import { ConfirmDialog } from "../confirm-dialog";
import styles from "./developers.module.css";

const GRACE = [
  { seconds: 0, text: "Immediately" },
  { seconds: 3600, text: "After 1 hour" },
  { seconds: 86400, text: "After 24 hours" },
];

const ROLLED = {
  secretKey: {
    label: "Roll secret key",
    title: "Roll the secret key?",
    explain: "A new secret key is issued for the same public key. Access tokens bought with the old secret die with it.",
  },
  signingSecret: {
    label: "Roll signing secret",
    title: "Roll the signing secret?",
    explain:
      "Callbacks are signed with a new secret. During the grace period they carry both signatures, so your receiver can switch without missing any.",
  },
};

/** The roll mutation of that secret: both take the old one's grace period. */
type Roll = { isPending: boolean; mutate: (input: { graceSeconds: number }) => void };

export function RollDialog({ secret, roll }: { secret: keyof typeof ROLLED; roll: Roll }) {
  const { label, title, explain } = ROLLED[secret];
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className="secondary" disabled={roll.isPending} onClick={() => dialog.current?.showModal()}>
        {roll.isPending ? "Rolling…" : label}
      </button>
      <ConfirmDialog
        dialog={dialog}
        className={styles.dialog}
        title={title}
        confirm="Roll now"
        dismiss="Cancel"
        onConfirm={(form) => roll.mutate({ graceSeconds: Number(form.get("graceSeconds")) })}
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
      </ConfirmDialog>
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
