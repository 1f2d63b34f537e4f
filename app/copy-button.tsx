"use client";
// Copies a dial code, account number or link, and says so for a moment.
import { useState } from "react";
import { copyText } from "./clipboard";

export function CopyButton({ value, label = "Copy", className = "secondary" }: { value: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await copyText(value);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <button type="button" className={className} onClick={copy} aria-label={`${label} ${value}`}>
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </button>
  );
}
