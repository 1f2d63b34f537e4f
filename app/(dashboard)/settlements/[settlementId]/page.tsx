import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { lagosDateTime, naira } from "@/app/payment-display";
import { EXCEPTION_KIND_LABEL, LINE_KIND_LABEL, lagosDay, providerAccountLabel, signedNaira } from "@/app/settlement-display";
import type { explainSettlement } from "@/server/settlements/explained";
import { signedInPage } from "@/server/trpc/page-caller";
import { paymentHref } from "../../payments/payment-table";
import { ReconciliationBadge, SettlementStatus } from "../badges";
import styles from "../../books.module.css";

type Params = Promise<{ settlementId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Settlement ${(await params).settlementId}` };
}

type Line = Awaited<ReturnType<typeof explainSettlement>>["lines"][number];

/** The line's verdict as the core reached it (server/settlements/explained.ts), in a finance team's words. */
const VERDICT: Record<Line["verdict"], { label: string; style: string | undefined }> = {
  matched: { label: "Matched", style: styles.matched },
  disagrees: { label: "Matched, disagrees", style: styles.withheld },
  external: { label: "Not Owo's sale", style: styles.neutral },
  deducted: { label: "Deducted", style: styles.neutral },
  unmatched: { label: "Not matched", style: styles.exceptions },
};

export default async function SettlementPage({ params }: { params: Params }) {
  const { settlementId } = await params;
  const { api } = await signedInPage();
  const s = await api.settlements.explained({ settlementId }).catch((e: unknown) => {
    // Someone else's settlement and a mistyped id both read as "no such settlement".
    if (e instanceof TRPCError && (e.code === "NOT_FOUND" || e.code === "BAD_REQUEST")) notFound();
    throw e;
  });
  const { exceptions, sales } = s;

  return (
    <section className={styles.page}>
      <a href="/settlements" className={styles.back}>
        ← Settlements
      </a>
      <header className={styles.head}>
        <div>
          <p className={styles.amount} data-testid="settlement-net">
            {naira(s.netAmount)}
          </p>
          <p className={styles.ref}>
            {providerAccountLabel(s.provider, s.providerId)} · <span className={styles.mono}>{s.providerSettlementId}</span>
          </p>
        </div>
        <div className={styles.badges}>
          <SettlementStatus status={s.status} />
          <ReconciliationBadge reconciliation={s.reconciliation} />
        </div>
      </header>

      <div className={styles.columns}>
        <div className={styles.page}>
          <div className={`card ${styles.card}`}>
            <h2>How the payout adds up</h2>
            <dl className={styles.sum} data-testid="settlement-arithmetic">
              <div>
                <dt>Gross ({sales === 1 ? "1 sale" : `${sales} sales`})</dt>
                <dd>{naira(s.grossAmount)}</dd>
              </div>
              <div>
                <dt>− Fees</dt>
                <dd>{naira(s.feeAmount)}</dd>
              </div>
              <div>
                <dt>− Refunds</dt>
                <dd>{naira(s.refundAmount)}</dd>
              </div>
              <div>
                <dt>− Deductions (stamp duty, chargebacks)</dt>
                <dd>{naira(s.adjustmentAmount)}</dd>
              </div>
              <div className={styles.total}>
                <dt>= Net paid {s.destination === "bank" ? "to the bank" : "to the provider wallet"}</dt>
                <dd>{naira(s.netAmount)}</dd>
              </div>
            </dl>
            {s.openExceptions > 0 && (
              <p className={`${styles.note} muted`}>
                Owo found what does not agree; each finding is listed beside and in the reconciliation queue.
              </p>
            )}
          </div>

          <div className={styles.tableWrap}>
            <table className={styles.table} data-testid="settlement-lines">
              <caption className={`muted ${styles.caption}`}>Lines, as the provider reported them</caption>
              <thead>
                <tr>
                  <th>Line</th>
                  <th className="num">Net</th>
                  <th className={`num ${styles.wide}`}>Gross</th>
                  <th className={`num ${styles.wide}`}>Fee</th>
                  <th>Match</th>
                </tr>
              </thead>
              <tbody>
                {s.lines.map((l, i) => {
                  const verdict = VERDICT[l.verdict];
                  return (
                    <tr key={i} data-testid="settlement-line">
                      <td>
                        <strong>{LINE_KIND_LABEL[l.kind] ?? l.kind}</strong>
                        {l.paymentReference ? (
                          <a href={paymentHref(l.paymentReference)} className={`${styles.sub} ${styles.mono}`}>
                            {l.paymentReference}
                          </a>
                        ) : (
                          <span className={`${styles.sub} ${styles.mono}`}>{l.providerReference ?? l.providerTransactionId}</span>
                        )}
                        <span className={`${styles.sub} ${styles.narrowOnly}`}>
                          {signedNaira(l.grossAmount)} − fee {naira(l.feeAmount)}
                        </span>
                      </td>
                      <td className={`num ${l.netAmount.startsWith("-") ? styles.negative : ""}`}>{signedNaira(l.netAmount)}</td>
                      <td className={`num ${styles.wide}`}>{signedNaira(l.grossAmount)}</td>
                      <td className={`num ${styles.wide}`}>{naira(l.feeAmount)}</td>
                      <td>
                        <span className={`badge ${verdict.style}`}>{verdict.label}</span>
                        {l.findings.map((k) => (
                          <span key={k} className={styles.sub}>
                            {EXCEPTION_KIND_LABEL[k]}
                          </span>
                        ))}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>

        <aside className={styles.page}>
          <div className={`card ${styles.card}`}>
            <h2>Details</h2>
            <dl className={styles.facts}>
              <div>
                <dt>Settled</dt>
                <dd>{s.settledAt ? lagosDateTime(s.settledAt) : "Not yet"}</dd>
              </div>
              <div>
                <dt>Bank reference</dt>
                <dd className={styles.mono}>{s.bankReference ?? "Not on a bank statement yet"}</dd>
              </div>
              <div>
                <dt>Owo&apos;s id</dt>
                <dd className={styles.mono}>{s.settlementId}</dd>
              </div>
              <div>
                <dt>Currency</dt>
                <dd>{s.currency}</dd>
              </div>
            </dl>
          </div>
          <div className={`card ${styles.card}`} data-testid="settlement-exceptions">
            <h2>Exceptions</h2>
            {exceptions.length === 0 ? (
              <p className="muted">None: every line agrees with Owo&apos;s record.</p>
            ) : (
              <ul className={styles.exceptionList}>
                {exceptions.map((e) => (
                  <li key={e.exceptionId}>
                    <strong>
                      {EXCEPTION_KIND_LABEL[e.kind]}
                      {e.resolvedAt && <span className="muted"> · resolved {lagosDay(e.resolvedAt)}</span>}
                    </strong>
                    <span className="muted">
                      {e.paymentReference && `${e.paymentReference} · `}
                      {e.expected !== null && `expected ${signedNaira(e.expected)}`}
                      {e.expected !== null && e.actual !== null && ", "}
                      {e.actual !== null && `got ${signedNaira(e.actual)}`}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {s.openExceptions > 0 && (
              <p className={styles.note}>
                <a href={`/reconciliation?settlementId=${encodeURIComponent(s.settlementId)}#exceptions`}>Resolve in Reconciliation →</a>
              </p>
            )}
          </div>
        </aside>
      </div>
    </section>
  );
}
