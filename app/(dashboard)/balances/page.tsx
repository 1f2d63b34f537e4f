import type { Metadata } from "next";
import { lagosDateTime, naira } from "@/app/payment-display";
import { debitOrCredit } from "@/server/books/debit-credit";
import type { EntryView } from "@/server/books/entries";
import { signedInPage } from "@/server/trpc/page-caller";
import { LedgerPostings } from "../ledger-postings";
import { paymentHref } from "../payments/payment-table";
import { BalanceChart } from "./balance-chart";
import { accountWord, KIND_WORD, providerWord } from "../book-words";
import listing from "../listing.module.css";
import styles from "./balances.module.css";

export const metadata: Metadata = { title: "Balances" };

/** What an entry is about: its payment (a link to it), else the settlement that paid out; the same at every width. */
function EntrySubject({ entry }: { entry: EntryView }) {
  return entry.paymentReference ? <a href={paymentHref(entry.paymentReference)}>{entry.paymentReference}</a> : <>{entry.settlementId}</>;
}

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function BalancesPage({ searchParams }: { searchParams: Search }) {
  const { cursor } = await searchParams;
  const { api, caller } = await signedInPage();
  const [balances, history, page] = await Promise.all([
    api.books.balances(),
    api.books.history(),
    // A cursor that is not one of ours starts from the newest entry instead of failing the page.
    api.books.entries({ limit: 50, cursor: typeof cursor === "string" && /^[1-9]\d{0,15}$/.test(cursor) ? cursor : undefined }),
  ]);
  const providerOf = new Map(balances.balances.providers.map((p) => [p.providerId, p.provider]));
  const names = Object.fromEntries(history.providers.map((p) => [p.providerId, providerWord(p.provider)]));
  const { bank, refundDue } = balances.balances;
  return (
    <section className={styles.page}>
      <header>
        <h1>Balances</h1>
        <p className="muted">
          {caller.merchantName} · {caller.mode === "live" ? "live" : "test"} · what the providers hold for you and what they paid out, from
          your books
        </p>
      </header>

      <div className={styles.cards}>
        {balances.balances.providers.map((p) => (
          <div key={p.providerId} className={`card ${styles.card}`} data-testid={`unsettled-${p.providerId}`}>
            <span className={styles.label}>{providerWord(p.provider)}</span>
            <strong className={styles.value}>{naira(p.unsettled)}</strong>
            <span className="muted">
              unsettled{p.wallet !== "0.00" && ` · ${naira(p.wallet)} in its wallet`}
              {p.providerId !== "sandbox" && <span className={styles.id}> · {p.providerId}</span>}
            </span>
          </div>
        ))}
        <div className={`card ${styles.card}`} data-testid="paid-out">
          <span className={styles.label}>Paid out</span>
          <strong className={styles.value}>{naira(bank)}</strong>
          <span className="muted">to your bank account, all time</span>
        </div>
        {refundDue !== "0.00" && (
          <div className={`card ${styles.card}`} data-testid="refund-due">
            <span className={styles.label}>Owed back</span>
            <strong className={styles.value}>{naira(refundDue)}</strong>
            <span className="muted">money that came after its payment closed</span>
          </div>
        )}
      </div>
      {balances.balances.providers.length === 0 && (
        <p className="muted">Nothing is held for you yet: a provider&apos;s balance appears here once a payment is paid.</p>
      )}

      <div className={`card ${styles.chart}`}>
        <h2>Last 30 days</h2>
        <p className="muted">Each provider&apos;s unsettled balance at the end of the day, and what it paid out that day.</p>
        <BalanceChart history={history} names={names} />
      </div>

      <div className={styles.entriesHead}>
        <h2>Ledger entries</h2>
        <form className={styles.download} action="/api/exports/ledger-entries" method="get">
          <label>
            From
            <input type="date" name="from" />
          </label>
          <label>
            To
            <input type="date" name="to" />
          </label>
          <button type="submit" className="button secondary">
            Download CSV
          </button>
        </form>
      </div>
      {page.entries.length === 0 ? (
        <p className="card muted">No entries yet: every payment received, refund and payout is booked here as it happens.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table} data-testid="ledger-entries">
            <thead>
              <tr>
                <th>Entry</th>
                <th className={styles.wide}>Reference</th>
                <th>Postings</th>
                <th className={styles.wide}>Posted</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((e) => (
                <tr key={e.entryId}>
                  <td>
                    <strong>{KIND_WORD[e.kind]}</strong>
                    <span className={styles.sub}>
                      #{e.sequence}
                      {e.reason && ` · ${e.reason.replaceAll("_", " ")}`}
                    </span>
                    <span className={`${styles.sub} ${styles.narrowOnly}`}>
                      <EntrySubject entry={e} /> · {lagosDateTime(e.postedAt)}
                    </span>
                  </td>
                  <td className={`${styles.reference} ${styles.wide}`}>
                    <EntrySubject entry={e} />
                    {e.refundReference && <span className={styles.sub}>{e.refundReference}</span>}
                  </td>
                  <td>
                    <LedgerPostings postings={e.postings.map(debitOrCredit)} accountName={(a) => accountWord(a, providerOf)} />
                  </td>
                  <td className={`${listing.when} ${styles.wide}`}>{lagosDateTime(e.postedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <footer className={styles.footer}>
        {page.nextCursor && <a href={`/balances?cursor=${page.nextCursor}`}>Older entries →</a>}
        <span className="muted" data-testid="ledger-head">
          Chain head #{balances.ledgerHead.sequence} · {balances.ledgerHead.hash.slice(0, 16)}…
        </span>
      </footer>
    </section>
  );
}
