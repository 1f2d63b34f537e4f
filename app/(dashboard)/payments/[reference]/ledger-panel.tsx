// The payment's ledger entries (server/books): each a sentence, with its postings as an accountant reads them.
import { lagosDateTime, naira } from "@/app/payment-display";
import type { PaymentBooks } from "@/server/books/payment-books";
import styles from "./history.module.css";

type Entry = PaymentBooks["entries"][number];

/** API.md's accounts in words; a provider's account is what it holds for the merchant, not yet paid out. */
function accountName(account: string): string {
  if (account === "provider:sandbox") return "Sandbox bank, unsettled";
  if (account.startsWith("provider:")) return "Provider, unsettled";
  if (account.startsWith("provider_wallet:")) return "Provider wallet";
  const names: Record<string, string> = {
    bank: "Your bank",
    sales: "Sales",
    fees: "Fees",
    refunds: "Refunds",
    refund_due: "Owed back to customers",
    adjustments: "Adjustments",
    external: "Other sales",
    suspense: "Suspense",
  };
  return names[account] ?? account;
}

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
      return `${naira(received)} arrived after the payment ended and is owed back to the customer, less ${withFee}.`;
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

export function LedgerPanel({ books }: { books: PaymentBooks }) {
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
              <table className={styles.postings}>
                <thead>
                  <tr>
                    <th scope="col">Account</th>
                    <th scope="col">Debit</th>
                    <th scope="col">Credit</th>
                  </tr>
                </thead>
                <tbody>
                  {e.postings.map((p, i) => (
                    <tr key={i}>
                      <td>{accountName(p.account)}</td>
                      <td>{p.debit ? naira(p.debit) : ""}</td>
                      <td>{p.credit ? naira(p.credit) : ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
