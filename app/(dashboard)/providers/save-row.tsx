"use client";
// The last row of a provider account's settings form (agreed fees, forwarding URL).
import type { ReactNode } from "react";

/** The form's save button, what else it offers (`children`), and "Saved" once the server took it. */
export function SaveRow({
  save,
  label,
  children,
}: {
  save: { isPending: boolean; isSuccess: boolean };
  label: string;
  children?: ReactNode;
}) {
  return (
    <div className="row">
      <button type="submit" className="secondary" disabled={save.isPending}>
        {save.isPending ? "Saving…" : label}
      </button>
      {children}
      {save.isSuccess && (
        <span role="status" className="muted">
          Saved
        </span>
      )}
    </div>
  );
}
