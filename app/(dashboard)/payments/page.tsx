import type { Metadata } from "next";
import { filtersFromQuery } from "@/server/payments/filters";
import { signedInPage } from "@/server/trpc/page-caller";
import { FilterBar } from "./filter-bar";
import { PaymentList } from "./payment-list";
import styles from "./payments.module.css";

export const metadata: Metadata = { title: "Payments" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function PaymentsPage({ searchParams }: { searchParams: Search }) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) if (typeof value === "string") query.set(name, value);
  const { filters, errors } = filtersFromQuery(query);
  const { api } = await signedInPage();
  const first = await api.payments.list({ ...filters, limit: 50 });
  // The export link carries exactly the filters the list applied, so the file matches the screen.
  const applied = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === "string"));
  return (
    <section className={styles.page}>
      <header className={styles.header}>
        <h1>Payments</h1>
        <a className="button" href="/payments/new">
          New payment
        </a>
      </header>
      <FilterBar filters={filters} errors={errors} />
      <PaymentList filters={filters} first={first} exportQuery={applied.toString()} filtered={applied.size > 0} />
    </section>
  );
}
