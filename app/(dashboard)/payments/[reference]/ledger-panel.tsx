// The payment's ledger entries (server/books): each a sentence, with its postings as an accountant reads them.
import { lagosDateTime, naira } from "@/app/payment-display";
import type { PaymentBooks } from "@/server/books/payment-books";
import { accountWord } from "../../book-words";
import { LedgerPostings } from "../../ledger-postings";
import styles from "./history.module.css";

type Entry = PaymentBooks["entries"][number];

function sumOf(e: Entry, account: string, side: "debit" | "credit"): string {
  const found = e.postings.find((p) => p.account === account && p[side] !== null);
  return found?.[side] ?? "0.00";
}

function describe(e: Entry): string {
  const received = e.postings.find((p) => p.account.startsWith("provider") && p.debit !== null)?.debit ?? "0.00";
  const fee = sumOf(e, "fees", "debit");
  const withFee = fee === "0.00" ? "no fee" : `the provider's fee ${naira(fee)}`;
  switch (e.kind) {
    case "credit":
      return `${naira(received)} received from the customer, less ${withFee}.`;
    case "late_credit":
      // All of it is owed back; the provider's fee on it is the merchant's to bear, not taken from the customer's money.
      return fee === "0.00"
        ? `${naira(received)} arrived after the payment ended: all of it is owed back to the customer.`
        : `${naira(received)} arrived after the payment ended: all of it is owed back to the customer, and the provider's fee ${naira(fee)} on it is yours to bear.`;
    case "refund": {
      const paid = e.postings.find((p) => p.credit !== null)?.credit ?? "0.00";
      return `${naira(paid)} paid back to the customer${e.refundReference ? ` (${e.refundReference})` : ""}.`;
    }
    case "adjustment":
      return `The provider deducted money${e.reason ? ` (${e.reason.replaceAll("_", " ")})` : ""}.`;
    case "reversal":
      return "An earlier entry undone exactly.";
    default:
      return `${e.kind.replaceAll("_", " ")}.`;
  }
}

/** `provider`: who issued the payment, so its account reads by the provider's name, as on Balances. */
export function LedgerPanel({ books, provider }: { books: PaymentBooks; provider: { name: string; providerId: string | null } }) {
  const providerOf = new Map([[provider.providerId ?? "sandbox", provider.name]]);
  return (
    <section className="card" aria-labelledby="ledger-title">
      <h2 id="ledger-title">Ledger entries</h2>
      {books.entries.length === 0 ? (
        <p className="muted">No money has moved for this payment yet, so the books hold nothing for it.</p>
      ) : (
        <ol className={styles.ledger} data-testid="ledger-entries">
          {books.entries.map((e) => (
            <li key={e.sequence}>
              <p className={styles.ledgerText}>{describe(e)}</p>
              <p className={styles.eventMeta}>
                Entry {e.sequence} · {lagosDateTime(e.postedAt)} · <span className="mono">{e.hash.slice(0, 12)}</span>
              </p>
              <LedgerPostings postings={e.postings} accountName={(a) => accountWord(a, providerOf)} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
