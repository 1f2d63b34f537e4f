"use client";
import { signOut } from "next-auth/react";
import { useHydrated } from "@/app/hydrated";
import { switchMerchant, switchMode } from "./actions";

export function SignOutButton() {
  const hydrated = useHydrated();
  return (
    <button className="secondary" disabled={!hydrated} onClick={() => signOut({ callbackUrl: "/signin" })}>
      Sign out
    </button>
  );
}

export function MerchantSwitcher({ current, merchants }: { current: string; merchants: { id: string; name: string }[] }) {
  if (merchants.length < 2) return null;
  return (
    <select
      aria-label="Switch merchant"
      defaultValue={current}
      onChange={async (e) => {
        await switchMerchant(e.target.value);
        window.location.assign("/dashboard");
      }}
    >
      {merchants.map((m) => (
        <option key={m.id} value={m.id}>
          {m.name}
        </option>
      ))}
    </select>
  );
}

/** Shown once a provider is connected: test mode is the sandbox bank, live mode the merchant's providers. */
export function ModeSwitch({ mode }: { mode: "test" | "live" }) {
  const hydrated = useHydrated();
  return (
    <button
      className="secondary"
      data-testid="mode-switch"
      disabled={!hydrated}
      onClick={async () => {
        await switchMode(mode === "live" ? "test" : "live");
        window.location.reload();
      }}
    >
      {mode === "live" ? "Switch to test mode" : "Switch to live mode"}
    </button>
  );
}
