// The list's filters as a plain GET form: the URL holds them, so a filtered view can be bookmarked or shared.
import { CHANNEL_LABEL, STATUS_LABEL } from "@/app/payment-display";
import type { FieldError } from "@/server/api-error";
import { PAYMENT_SOURCES, PAYMENT_STATUSES, type PaymentFilters } from "@/server/payments/filters";
import styles from "./payments.module.css";

const SOURCE_LABEL: Record<(typeof PAYMENT_SOURCES)[number], string> = {
  rest: "REST API",
  trpc: "tRPC API",
  dashboard: "Dashboard",
  link: "Payment link",
  seed: "Sample data",
};

export function FilterBar({ filters, errors }: { filters: PaymentFilters; errors: FieldError[] }) {
  const errorOf = (field: string) => errors.find((e) => e.field === field)?.message;
  const narrowed = Object.entries(filters).some(([name, value]) => name !== "search" && value !== undefined) || errors.length > 0;
  const field = (name: keyof PaymentFilters, label: string, input: React.ReactNode) => (
    <label className={styles.filter}>
      {label}
      {input}
      {errorOf(name) && <span className="field-error">{`${label} ${errorOf(name)}`}</span>}
    </label>
  );
  const choice = (name: "status" | "channel" | "source", label: string, options: [value: string, text: string][]) =>
    field(
      name,
      label,
      <select name={name} defaultValue={filters[name] ?? ""}>
        <option value="">{`Any ${label.toLowerCase()}`}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>,
    );
  /** A filter typed in (a day, an amount): what was asked is kept, and marked when the server refused it. */
  const typed = (name: "from" | "to" | "minAmount" | "maxAmount", label: string, kind: React.InputHTMLAttributes<HTMLInputElement>) =>
    field(name, label, <input name={name} {...kind} defaultValue={filters[name] ?? ""} aria-invalid={Boolean(errorOf(name))} />);
  return (
    <form method="get" action="/payments" className={styles.filters} role="search">
      <div className={styles.searchRow}>
        <input
          type="search"
          name="search"
          defaultValue={filters.search ?? ""}
          placeholder="Reference, e-mail or phone"
          title="Exact value or its first characters"
          aria-label="Search payments"
          maxLength={254}
        />
        <button type="submit">Search</button>
      </div>
      <details open={narrowed} className={styles.more}>
        <summary>Filters{narrowed ? " (on)" : ""}</summary>
        <div className={styles.moreBody}>
          <div className={styles.filterGrid}>
            {choice(
              "status",
              "Status",
              PAYMENT_STATUSES.map((s) => [s, STATUS_LABEL[s]]),
            )}
            {choice("channel", "Channel", Object.entries(CHANNEL_LABEL))}
            {choice(
              "source",
              "Source",
              PAYMENT_SOURCES.map((s) => [s, SOURCE_LABEL[s]]),
            )}
            {/* The list is of payments by the day each was created; the overview's money counts by when it moved. */}
            {typed("from", "Created from", { type: "date" })}
            {typed("to", "Created to", { type: "date" })}
            {typed("minAmount", "Min ₦", { inputMode: "decimal", placeholder: "0.00" })}
            {typed("maxAmount", "Max ₦", { inputMode: "decimal", placeholder: "any" })}
          </div>
          <div className="row">
            <button type="submit">Apply filters</button>
            <a href="/payments" className="button secondary">
              Clear
            </a>
          </div>
        </div>
      </details>
    </form>
  );
}
