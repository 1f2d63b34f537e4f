"use client";
// The merchant's default callback and redirect URLs for new payment links.
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";
import styles from "./developers.module.css";

type Defaults = { defaultCallbackUrl: string | null; defaultRedirectUrl: string | null };

export function LinkDefaultsForm({ defaults, fallback, mayChange }: { defaults: Defaults; fallback: string; mayChange: boolean }) {
  const save = trpc.links.setDefaults.useMutation();
  const errors = Object.fromEntries((save.error?.data?.errors ?? []).map((e) => [e.field, e.message]));
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        save.mutate({
          defaultCallbackUrl: String(form.get("defaultCallbackUrl")),
          defaultRedirectUrl: String(form.get("defaultRedirectUrl")),
        });
      }}
    >
      <div className={styles.formRow}>
        <label>
          Default callback URL
          <input
            name="defaultCallbackUrl"
            type="url"
            defaultValue={defaults.defaultCallbackUrl ?? ""}
            disabled={!mayChange}
            placeholder="https://shop.example.ng/owo/callback"
            aria-invalid={Boolean(errors.defaultCallbackUrl)}
          />
          {errors.defaultCallbackUrl && <span className="field-error">Callback URL {errors.defaultCallbackUrl}</span>}
        </label>
        <label>
          Default redirect URL
          <input
            name="defaultRedirectUrl"
            type="url"
            defaultValue={defaults.defaultRedirectUrl ?? ""}
            disabled={!mayChange}
            placeholder={fallback}
            aria-invalid={Boolean(errors.defaultRedirectUrl)}
          />
          {errors.defaultRedirectUrl && <span className="field-error">Redirect URL {errors.defaultRedirectUrl}</span>}
        </label>
        {mayChange && (
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save defaults"}
          </button>
        )}
      </div>
      {save.error && Object.keys(errors).length === 0 && <FormError message={save.error.message} />}
      {save.isSuccess && (
        <p role="status" className="muted">
          Saved. New links use these; existing links keep theirs.
        </p>
      )}
    </form>
  );
}
