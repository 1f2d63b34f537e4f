import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { ZodError } from "zod";
import { EXCEPTION_KIND_LABEL, lagosDate, signedNaira } from "@/app/settlement-display";
import { can } from "@/server/auth/permissions";
import { clock } from "@/server/clock";
import { EXCEPTION_KINDS } from "@/server/reconciliation/exceptions";
import { signedInPage } from "@/server/trpc/page-caller";
import { ExportButton } from "../export-button";
import { ExceptionQueue } from "./exception-queue";
import { ReportChart } from "./report-chart";
import { StatementUpload } from "./statement-upload";
import styles from "../books.module.css";

export const metadata: Metadata = { title: "Reconciliation" };

type Search = Promise<Record<string, string | string[] | undefined>>;

const AGES: [string, string][] = [
  ["", "Any age"],
  ["1", "A day or more"],
  ["3", "3 days or more"],
  ["7", "A week or more"],
];

/** A refusal of the page's own inputs (a hand-edited URL), in the schema's or the core's words. */
function problemOf(e: unknown): string {
  if (e instanceof TRPCError && e.cause instanceof ZodError)
    return e.cause.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ");
  if (e instanceof TRPCError && e.code === "BAD_REQUEST") return e.message;
  throw e;
}

export default async function ReconciliationPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const text = (name: string) => (typeof params[name] === "string" ? params[name].trim() : "");
  const { api, caller } = await signedInPage();
  const now = clock.now();
  const today = lagosDate(now);
  // A week ending today unless the URL names a period.
  const from = text("from") || lagosDate(now - 6 * 86_400_000);
  const to = text("to") || today;
  const queue = {
    status: (["open", "resolved", "all"].includes(text("status")) ? text("status") : "open") as "open" | "resolved" | "all",
    kind: text("kind") || undefined,
    minAge: text("minAge") || undefined,
    settlementId: text("settlementId") || undefined,
  };
  const [report, exceptions] = await Promise.all([
    api.reconciliation.report({ from, to }).catch(problemOf),
    api.reconciliation.exceptions(queue).catch(problemOf),
  ]);
  const keep = (extra: Record<string, string | undefined>) =>
    `?${new URLSearchParams(Object.entries({ from, to, ...extra }).filter((e): e is [string, string] => Boolean(e[1])))}`;

  return (
    <section className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1>Reconciliation</h1>
          <p className="muted">What the providers held, took in and paid out, and everything that does not agree.</p>
        </div>
        <a className="button secondary" href="/settlements">
          Settlements
        </a>
      </header>

      <form method="get" action="/reconciliation" className={`card ${styles.period}`}>
        <label className={styles.filter}>
          From
          <input type="date" name="from" defaultValue={from} max={today} />
        </label>
        <label className={styles.filter}>
          To
          <input type="date" name="to" defaultValue={to} max={today} />
        </label>
        <button type="submit">Show period</button>
        {can(caller, "settlements.export") && typeof report !== "string" && (
          <ExportButton path="/api/exports/reconciliation" query={`from=${from}&to=${to}`} label="Report CSV" />
        )}
      </form>

      {typeof report === "string" ? (
        <p className="form-error">{report}</p>
      ) : (
        <div className={styles.report}>
          <div className={`card ${styles.card}`}>
            <h2>Held by providers, {from === to ? from : `${from} to ${to}`}</h2>
            <dl className={styles.sum} data-testid="report">
              {(
                [
                  ["Opening", report.opening],
                  ["+ Credits", report.credits],
                  ["− Fees", report.fees],
                  ["− Refunds", report.refunds],
                  ["− Adjustments", report.adjustments],
                  ["− Paid out", report.paidOut],
                  ["+ Other sales paid out (external)", report.external],
                  ["+ Paid for no Owo payment (suspense)", report.suspense],
                ] as const
              ).map(([label, amount]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{signedNaira(amount)}</dd>
                </div>
              ))}
              <div className={styles.total}>
                <dt>= Closing</dt>
                <dd data-testid="report-closing">{signedNaira(report.closing)}</dd>
              </div>
            </dl>
            <p className={`${styles.note} muted`}>
              Every figure is a movement on the ledger&apos;s provider accounts
              {report.ledgerHead ? `, up to entry ${report.ledgerHead.sequence}` : ""}.
            </p>
          </div>
          <div className={`card ${styles.card}`}>
            <h2>The period at a glance</h2>
            <ReportChart report={report} />
          </div>
        </div>
      )}

      <h2 id="exceptions" className={styles.sectionHead}>
        Exceptions
      </h2>
      <form method="get" action="/reconciliation#exceptions" className={`card ${styles.filters}`} role="search">
        <input type="hidden" name="from" value={from} />
        <input type="hidden" name="to" value={to} />
        {queue.settlementId && <input type="hidden" name="settlementId" value={queue.settlementId} />}
        <label className={styles.filter}>
          Kind
          <select name="kind" defaultValue={queue.kind ?? ""}>
            <option value="">Every kind</option>
            {EXCEPTION_KINDS.map((k) => (
              <option key={k} value={k}>
                {EXCEPTION_KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.filter}>
          Waiting
          <select name="minAge" defaultValue={queue.minAge ?? ""}>
            {AGES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.filter}>
          State
          <select name="status" defaultValue={queue.status}>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="all">Open and resolved</option>
          </select>
        </label>
        <div className={styles.filterActions}>
          <button type="submit">Filter</button>
          <a href={`/reconciliation${keep({})}#exceptions`} className="button secondary">
            Clear
          </a>
        </div>
      </form>
      {queue.settlementId && (
        <p className="muted">
          Only settlement {queue.settlementId}. <a href={`/reconciliation${keep({})}#exceptions`}>Show every settlement&apos;s</a>
        </p>
      )}
      {typeof exceptions === "string" ? (
        <p className="form-error">{exceptions}</p>
      ) : (
        <ExceptionQueue exceptions={exceptions} canResolve={can(caller, "reconciliation.manage")} />
      )}

      {can(caller, "reconciliation.manage") && (
        <>
          <h2 className={styles.sectionHead}>Bank statement</h2>
          <p className="muted">
            Upload the statement of the account your providers pay into: each credit is matched to a payout by amount and date (± 3 days),
            and what names a provider but matches nothing is flagged.
          </p>
          <StatementUpload />
        </>
      )}
    </section>
  );
}
