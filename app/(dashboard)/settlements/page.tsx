import type { Metadata } from "next";
import { naira } from "@/app/payment-display";
import { lagosDay, providerAccountLabel, SETTLEMENT_STATUS_LABEL } from "@/app/settlement-display";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { can } from "@/server/auth/permissions";
import { SETTLEMENT_STATUSES, settlementFilters } from "@/server/settlements/view";
import { signedInPage } from "@/server/trpc/page-caller";
import { ExportButton } from "../export-button";
import { ReconciliationBadge, SettlementStatus, settlementHref } from "./badges";
import { SandboxSettle } from "./sandbox-settle";
import styles from "../books.module.css";

export const metadata: Metadata = { title: "Settlements" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function SettlementsPage({ searchParams }: { searchParams: Search }) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) if (typeof value === "string") query.set(name, value);
  const filters = settlementFilters(query);
  const cursor = query.get("cursor") || undefined;
  const { api, caller } = await signedInPage();
  const sources = await api.settlements.sources();
  // A hand-edited URL with a bad filter shows the schema's words for it, not an error page.
  const listed = await api.settlements.list({ ...filters, cursor }).catch((e: unknown) => {
    if (!(e instanceof TRPCError && e.cause instanceof ZodError)) throw e;
    return { settlements: [], nextCursor: null, problem: e.cause.issues.map((i) => `${i.path.join(".")} ${i.message}`) };
  });
  const problem = "problem" in listed ? listed.problem : [];
  const applied = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === "string"));
  const older = listed.nextCursor ? new URLSearchParams([...applied, ["cursor", listed.nextCursor]]) : null;

  return (
    <section className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1>Settlements</h1>
          <p className="muted">What each provider paid out, what it kept back, and whether it agrees with Owo&apos;s books.</p>
        </div>
        <a className="button secondary" href="/reconciliation">
          Reconciliation
        </a>
      </header>

      {caller.mode === "test" && can(caller, "change") && <SandboxSettle />}

      <form method="get" action="/settlements" className={`card ${styles.filters}`} role="search">
        <label className={styles.filter}>
          Provider account
          <select name="providerId" defaultValue={filters.providerId ?? ""}>
            <option value="">Every provider account</option>
            {sources.map((s) => (
              <option key={s.providerId} value={s.providerId}>
                {providerAccountLabel(s.provider, s.providerId)}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.filter}>
          Status
          <select name="status" defaultValue={filters.status ?? ""}>
            <option value="">Any status</option>
            {SETTLEMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {SETTLEMENT_STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.filter}>
          From
          <input type="date" name="from" defaultValue={filters.from ?? ""} />
        </label>
        <label className={styles.filter}>
          To
          <input type="date" name="to" defaultValue={filters.to ?? ""} />
        </label>
        <div className={styles.filterActions}>
          <button type="submit">Apply</button>
          <a href="/settlements" className="button secondary">
            Clear
          </a>
        </div>
      </form>
      {problem.length > 0 && <p className="form-error">{problem.join("; ")}</p>}

      {listed.settlements.length === 0 ? (
        <div className={`card ${styles.empty}`}>
          {applied.size > 0 ? (
            <p>No settlements match these filters.</p>
          ) : (
            <p>
              No settlements yet. Providers pay out on their own schedule; Owo reads each settlement as it is published
              {caller.mode === "test"
                ? ", and the sandbox bank settles every night at midnight in Lagos, or now from the button above."
                : "."}
            </p>
          )}
        </div>
      ) : (
        <>
          <div className={styles.listBar}>
            <span className="muted" data-testid="shown-count">
              {listed.settlements.length === 1 ? "1 settlement" : `${listed.settlements.length} settlements`}
              {cursor ? " (older)" : ", newest first"}
            </span>
            {can(caller, "settlements.export") && (
              <div className={styles.exports}>
                <ExportButton path="/api/exports/settlements" query={applied.toString()} label="Settlements CSV" />
                <ExportButton path="/api/exports/settlement-lines" query={applied.toString()} label="Lines CSV" />
              </div>
            )}
          </div>
          <div className={styles.tableWrap}>
            <table className={styles.table} data-testid="settlements-table">
              <thead>
                <tr>
                  <th>Status</th>
                  <th className="num">Net</th>
                  <th className={styles.wide}>Settlement</th>
                  <th className={styles.wide}>Provider account</th>
                  <th className={`num ${styles.wide}`}>Lines</th>
                  <th>Reconciliation</th>
                  <th className={styles.wide}>Settled</th>
                </tr>
              </thead>
              <tbody>
                {listed.settlements.map((s) => (
                  <tr key={s.settlementId} className={styles.row}>
                    <td>
                      <SettlementStatus status={s.status} />
                    </td>
                    <td className="num">
                      <strong>{naira(s.netAmount)}</strong>
                      <span className={`${styles.sub} ${styles.wide}`}>net of {naira(s.grossAmount)} gross</span>
                      {/* On a phone the settlement column gives way; the row still opens from here. */}
                      <a href={settlementHref(s.settlementId)} className={`${styles.sub} ${styles.narrowOnly} ${styles.rowLinkPlain}`}>
                        {providerAccountLabel(s.provider, s.providerId)} · {lagosDay(s.settledAt)}
                      </a>
                    </td>
                    <td className={styles.wide}>
                      <a href={settlementHref(s.settlementId)} className={styles.rowLink}>
                        {s.providerSettlementId}
                      </a>
                      {/* The books and the balances name a payout by Owo's id: shown here too, so the two can be tied. */}
                      <span className={`${styles.sub} ${styles.mono}`}>{s.settlementId}</span>
                    </td>
                    <td className={styles.wide}>
                      {providerAccountLabel(s.provider, s.providerId)}
                      <span className={styles.sub}>to {s.destination === "bank" ? "bank account" : "provider wallet"}</span>
                    </td>
                    <td className={`num ${styles.wide}`}>{s.count}</td>
                    <td>
                      <ReconciliationBadge reconciliation={s.reconciliation} />
                    </td>
                    <td className={`${styles.when} ${styles.wide}`}>{lagosDay(s.settledAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {older && (
            <div className={styles.more}>
              <a className="button secondary" href={`/settlements?${older.toString()}`}>
                Older settlements
              </a>
            </div>
          )}
        </>
      )}
    </section>
  );
}
