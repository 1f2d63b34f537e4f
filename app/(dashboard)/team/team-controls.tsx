"use client";
// The team page's actions: invite (the link is mailed when an address is given, and shown once to copy), change a role, remove someone, withdraw an invite.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { CopyButton } from "@/app/copy-button";
import { lagosDateTime } from "@/app/payment-display";
import { FormError } from "@/app/form-error";
import { fieldsTo } from "@/app/form-submit";
import { trpc } from "@/app/trpc-provider";
import type { Role } from "@/db/schema";
import styles from "./team.module.css";

const ROLE_OPTIONS: { role: Role; text: string }[] = [
  { role: "viewer", text: "Viewer (reads only)" },
  { role: "developer", text: "Developer" },
  { role: "admin", text: "Admin" },
  { role: "owner", text: "Owner" },
];

export function InviteForm({ mayGrantOwner }: { mayGrantOwner: boolean }) {
  const router = useRouter();
  const invite = trpc.team.invite.useMutation({ onSuccess: () => router.refresh() });
  const emailError = invite.error?.data?.errors.find((e) => e.field === "email");
  return (
    <form
      className="stack"
      onSubmit={fieldsTo((form) => invite.mutate({ role: String(form.get("role")) as Role, email: String(form.get("email") ?? "") }))}
    >
      <div className={styles.inviteGrid}>
        <label>
          Role
          <select name="role" defaultValue="viewer" aria-label="Role">
            {ROLE_OPTIONS.map((o) => (
              <option key={o.role} value={o.role} disabled={o.role === "owner" && !mayGrantOwner}>
                {o.text}
              </option>
            ))}
          </select>
        </label>
        <label>
          Their e-mail (optional: the link is mailed there, and only this address can use it)
          <input name="email" type="email" autoComplete="off" aria-invalid={Boolean(emailError)} />
          {emailError && <span className="field-error">E-mail {emailError.message}</span>}
        </label>
        <button type="submit" disabled={invite.isPending}>
          {invite.isPending ? "Creating…" : "Create invite link"}
        </button>
      </div>
      {!emailError && <FormError message={invite.error?.message} />}
      {invite.data && (
        <div className={styles.inviteResult} role="status">
          <p style={{ marginTop: 0 }}>
            Invite link for a <strong>{invite.data.role}</strong>
            {invite.data.email ? ` (${invite.data.email})` : ""}.{" "}
            {invite.data.mailed ? `We mailed it to ${invite.data.email}; you may also send it yourself.` : "Send it yourself."} It works
            once, until {lagosDateTime(invite.data.expiresAt)}, and is shown here only now.
          </p>
          <div className={styles.url}>
            <input readOnly value={invite.data.url} aria-label="Invite link" onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={invite.data.url} />
          </div>
        </div>
      )}
    </form>
  );
}

export function MemberControls({
  userId,
  role,
  name,
  mayGrantOwner,
}: {
  userId: string;
  role: Role;
  name: string;
  mayGrantOwner: boolean;
}) {
  const router = useRouter();
  const change = trpc.team.changeRole.useMutation({ onSuccess: () => router.refresh() });
  const remove = trpc.team.remove.useMutation({ onSuccess: () => router.refresh() });
  const ownerLocked = role === "owner" && !mayGrantOwner;
  return (
    <div className="stack" style={{ gap: "0.25rem" }}>
      <div className={styles.controls}>
        <select
          aria-label={`Role of ${name}`}
          value={role}
          disabled={change.isPending || ownerLocked}
          onChange={(e) => change.mutate({ userId, role: e.target.value as Role })}
        >
          {ROLE_OPTIONS.map((o) => (
            <option key={o.role} value={o.role} disabled={o.role === "owner" && !mayGrantOwner}>
              {o.text}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="secondary"
          disabled={remove.isPending || ownerLocked}
          onClick={() => {
            if (window.confirm(`Remove ${name} from the team? They lose access at once.`)) remove.mutate({ userId });
          }}
        >
          Remove
        </button>
      </div>
      <FormError message={(change.error ?? remove.error)?.message} />
    </div>
  );
}

export function WithdrawInvite({ id }: { id: string }) {
  const router = useRouter();
  const withdraw = trpc.team.withdrawInvite.useMutation({ onSuccess: () => router.refresh() });
  return (
    <>
      <button type="button" className={`secondary ${styles.small}`} disabled={withdraw.isPending} onClick={() => withdraw.mutate({ id })}>
        Withdraw
      </button>
      <FormError message={withdraw.error?.message} />
    </>
  );
}

/** The owner's switch: everyone on the team signs in with two factors (those without it are sent to set it up). */
export function RequireTwoFactor({ required }: { required: boolean }) {
  const router = useRouter();
  const [on, setOn] = useState(required);
  const set = trpc.team.requireTwoFactor.useMutation({ onSuccess: () => router.refresh(), onError: () => setOn(required) });
  return (
    <div className="stack">
      <label>
        <input
          type="checkbox"
          checked={on}
          disabled={set.isPending}
          onChange={(e) => {
            setOn(e.target.checked);
            set.mutate({ required: e.target.checked });
          }}
        />{" "}
        Require two-factor sign-in for everyone on this team
      </label>
      {set.isSuccess && (
        <p role="status" className="muted">
          {set.data.requireTwoFactor
            ? "Saved: everyone on this team now signs in with two factors."
            : "Saved: two-factor sign-in is each person's choice."}
        </p>
      )}
      <FormError message={set.error?.message} />
    </div>
  );
}
