"use client";
// The business's name and support contact: what its customers read on the checkout and receipts.
import { useRouter } from "next/navigation";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";
import type { BusinessProfile } from "@/server/merchants/business-profile";
import styles from "./business.module.css";

export function ProfileForm({ profile, mayChange }: { profile: BusinessProfile; mayChange: boolean }) {
  const router = useRouter();
  const save = trpc.business.setProfile.useMutation({ onSuccess: () => router.refresh() });
  const errors = Object.fromEntries((save.error?.data?.errors ?? []).map((e) => [e.field, e.message]));
  const field = (name: "name" | "supportEmail" | "supportPhone", label: string, type: string, hint: string) => (
    <label>
      {label}
      <input
        name={name}
        type={type}
        defaultValue={profile[name] ?? ""}
        disabled={!mayChange}
        aria-invalid={Boolean(errors[name])}
        placeholder={hint}
      />
      {errors[name] && <span className="field-error">{`${label} ${errors[name]}`}</span>}
    </label>
  );
  return (
    <form
      className={`stack ${styles.form}`}
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        save.mutate({
          name: String(form.get("name")),
          supportEmail: String(form.get("supportEmail")),
          supportPhone: String(form.get("supportPhone")),
        });
      }}
    >
      {field("name", "Business name", "text", "Mama Put Kitchen")}
      {field("supportEmail", "Support e-mail", "email", "help@shop.example.ng")}
      {field("supportPhone", "Support phone", "tel", "+234 801 234 5678")}
      <p className="muted">Leave a contact empty to show none. Customers see the e-mail and phone as links to write or call.</p>
      {mayChange && (
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save profile"}
        </button>
      )}
      {save.error && Object.keys(errors).length === 0 && <FormError message={save.error.message} />}
      {save.isSuccess && (
        <p role="status" className="muted">
          Saved. Checkouts and receipts show it from now on.
        </p>
      )}
    </form>
  );
}
