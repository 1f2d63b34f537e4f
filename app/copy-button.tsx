"use client";
// Copies a dial code, account number or link, and says so for a moment.
import { useState } from "react";

export function CopyButton({ value, label = "Copy", className = "secondary" }: { value: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Older phones and non-secure origins have no clipboard API; a hidden textarea still copies there.
      const area = Object.assign(document.createElement("textarea"), { value });
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <button type="button" className={className} onClick={copy} aria-label={`${label} ${value}`}>
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </button>
  );
}
