"use client";
import { signOut } from "next-auth/react";
import { switchMerchant } from "./actions";

export function SignOutButton() {
  return (
    <button className="secondary" onClick={() => signOut({ callbackUrl: "/signin" })}>
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
