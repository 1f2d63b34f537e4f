// One ledger entry's postings in Debit and Credit columns, as an accountant reads them: the Balances page's entries
// and a payment's ledger panel show them the same way.
import { naira } from "@/app/payment-display";
import type { DebitCredit } from "@/server/books/debit-credit";
import styles from "./ledger-postings.module.css";

/** `accountName` words an account for the page it is on (a provider's account by the provider it is at). */
export function LedgerPostings({ postings, accountName }: { postings: DebitCredit[]; accountName: (account: string) => string }) {
  return (
    <table className={styles.postings}>
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col">Debit</th>
          <th scope="col">Credit</th>
        </tr>
      </thead>
      <tbody>
        {postings.map((p, i) => (
          <tr key={i}>
            <td>{accountName(p.account)}</td>
            <td>{p.debit ? naira(p.debit) : ""}</td>
            <td>{p.credit ? naira(p.credit) : ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
