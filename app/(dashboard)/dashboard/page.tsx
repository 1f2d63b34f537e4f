import type { Metadata } from "next";
import { signedInPage } from "@/server/trpc/page-caller";
import { PaymentTable } from "../payments/payment-table";
import { OverviewPanel } from "./overview-panel";
import styles from "./overview.module.css";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const { api, caller } = await signedInPage();
  const [overview, recent] = await Promise.all([api.payments.overview(), api.payments.list({ limit: 6 })]);
  const empty = overview.periods["30d"].totals.count === 0 && recent.items.length === 0;
  return (
    <section className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1>Overview</h1>
          <p className="muted">
            {caller.merchantName} · {caller.mode === "live" ? "live payments" : "test payments"} · money as your books have it, Lagos time
          </p>
        </div>
        <a className="button" href="/payments/new">
          New payment
        </a>
      </header>
      {empty ? (
        <div className={`card ${styles.empty}`}>
          <h2>No payments yet</h2>
          <p className="muted">
            Create a payment here, or initiate one from your backend with your test keys (Developers). Then pay it with the sandbox bank on
            its page and watch these figures move.
          </p>
          <a className="button" href="/payments/new">
            Create a test payment
          </a>
        </div>
      ) : (
        <>
          <OverviewPanel overview={overview} />
          <div className={styles.recentHead}>
            <h2>Latest payments</h2>
            <a href="/payments">All payments →</a>
          </div>
          <PaymentTable items={recent.items} />
        </>
      )}
    </section>
  );
}
