"use client";
// The merchant's default callback and redirect URLs for new payment links.
import { FormError } from "@/app/form-error";
import { fieldsTo } from "@/app/form-submit";
import { trpc } from "@/app/trpc-provider";
import styles from "./developers.module.css";

type Defaults = { defaultCallbackUrl: string | null; defaultRedirectUrl: string | null };

type UrlFieldProps = {
  name: keyof Defaults;
  label: string;
  /** The field's name in a refusal: "Callback URL must be …". */
  named: string;
  value: string | null;
  placeholder: string;
  mayChange: boolean;
  error: string | undefined;
};

function UrlField({ name, label, named, value, placeholder, mayChange, error }: UrlFieldProps) {
  return (
    <label>
      {label}
      <input
        name={name}
        type="url"
        defaultValue={value ?? ""}
        disabled={!mayChange}
        placeholder={placeholder}
        aria-invalid={Boolean(error)}
      />
      {error && (
        <span className="field-error">
          {named} {error}
        </span>
      )}
    </label>
  );
}

export function LinkDefaultsForm({ defaults, fallback, mayChange }: { defaults: Defaults; fallback: string; mayChange: boolean }) {
  const save = trpc.links.setDefaults.useMutation();
  const errors: Record<string, string> = Object.fromEntries((save.error?.data?.errors ?? []).map((e) => [e.field, e.message]));
  return (
    <form
      className="stack"
      onSubmit={fieldsTo((form) =>
        save.mutate({
          defaultCallbackUrl: String(form.get("defaultCallbackUrl")),
          defaultRedirectUrl: String(form.get("defaultRedirectUrl")),
        }),
      )}
    >
      <div className={styles.formRow}>
        <UrlField
          name="defaultCallbackUrl"
          label="Default callback URL"
          named="Callback URL"
          value={defaults.defaultCallbackUrl}
          placeholder="https://shop.example.ng/owo/callback"
          mayChange={mayChange}
          error={errors.defaultCallbackUrl}
        />
        <UrlField
          name="defaultRedirectUrl"
          label="Default redirect URL"
          named="Redirect URL"
          value={defaults.defaultRedirectUrl}
          placeholder={fallback}
          mayChange={mayChange}
          error={errors.defaultRedirectUrl}
        />
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
