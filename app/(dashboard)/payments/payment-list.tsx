"use client";
// The list after its first page: older pages on demand (keyset cursor), and the CSV export of the same filters.
import { trpc } from "@/app/trpc-provider";
import type { PaymentFilters } from "@/server/payments/filters";
import type { PaymentSummary } from "@/server/payments/history";
import { ExportButton } from "../export-button";
import { PaymentTable } from "./payment-table";
import styles from "./payments.module.css";

type Page = { items: PaymentSummary[]; nextCursor: string | null };

export function PaymentList({
  filters,
  first,
  exportQuery,
  filtered,
}: {
  filters: PaymentFilters;
  first: Page;
  exportQuery: string;
  filtered: boolean;
}) {
  const pages = trpc.payments.list.useInfiniteQuery(
    { ...filters, limit: 50 },
    {
      getNextPageParam: (last) => last.nextCursor,
      initialData: { pages: [first], pageParams: [null] },
      // Keep the first page as the server drew it; later pages load only when asked for.
      staleTime: 30_000,
    },
  );
  const items = pages.data?.pages.flatMap((p) => p.items) ?? first.items;

  if (items.length === 0) {
    return (
      <div className={`card ${styles.empty}`}>
        {filtered ? (
          <>
            <p>No payments match these filters.</p>
            <a href="/payments" className="button secondary">
              Clear filters
            </a>
          </>
        ) : (
          <>
            <p>No payments yet. Create one here, or send one through the API with your test keys.</p>
            <a href="/payments/new" className="button">
              New payment
            </a>
          </>
        )}
      </div>
    );
  }
  return (
    <>
      <div className={styles.listBar}>
        <span className="muted" data-testid="shown-count">
          {items.length === 1 ? "1 payment" : `${items.length.toLocaleString("en-NG")} payments`}
          {pages.hasNextPage ? " shown, newest first" : ""}
        </span>
        <ExportButton path="/api/exports/payments" query={exportQuery} />
      </div>
      <PaymentTable items={items} />
      {pages.hasNextPage && (
        <div className={styles.loadMore}>
          <button type="button" className="secondary" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
            {pages.isFetchingNextPage ? "Loading…" : "Show older payments"}
          </button>
        </div>
      )}
      {pages.isError && <p className="form-error">Could not load more payments: {pages.error.message}</p>}
    </>
  );
}
