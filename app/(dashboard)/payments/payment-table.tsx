// The payments table of the list and the overview: status (and whether its money went back) first, amount (with what
// arrived, and what of it is the customer's to refund, as the core says), what the merchant keeps of it, who, when;
// each row opens the payment.
import { channelLabel, lagosDateTime, naira, STATUS_LABEL } from "@/app/payment-display";
import type { PaymentSummary } from "@/server/payments/history";
import held from "./held-money.module.css";
import styles from "./payments.module.css";

export function paymentHref(paymentReference: string): string {
  return `/payments/${encodeURIComponent(paymentReference)}`;
}

export function StatusBadge({ status }: { status: PaymentSummary["status"] }) {
  return <span className={`badge badge-${status}`}>{STATUS_LABEL[status]}</span>;
}

const REFUND_LABEL = { refunded: "Refunded", partly_refunded: "Partly refunded" } as const;

/** Beside the status: the payment's money went back, all of it or part (the core decides which). */
export function RefundBadge({ mark }: { mark: NonNullable<PaymentSummary["refunded"]> }) {
  return <span className={`badge badge-${mark}`}>{REFUND_LABEL[mark]}</span>;
}

export function PaymentTable({ items, caption }: { items: PaymentSummary[]; caption?: string }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} data-testid="payments-table">
        {caption && <caption className="muted">{caption}</caption>}
        <thead>
          <tr>
            <th>Status</th>
            <th className="num">Amount</th>
            <th className={`num ${styles.wide}`}>Net</th>
            <th>Reference</th>
            <th className={styles.wide}>Customer</th>
            <th className={styles.wide}>Channel</th>
            <th className={styles.wide}>Created</th>
          </tr>
        </thead>
        <tbody>
          {items.map((p) => (
            <tr key={p.linkingReference} className={styles.row}>
              <td>
                <span className={styles.status}>
                  <StatusBadge status={p.status} />
                  {p.refunded && <RefundBadge mark={p.refunded} />}
                </span>
              </td>
              <td className="num">
                <strong>{naira(p.amount)}</strong>
                {p.status === "PARTIALLY_PAID" && <span className={styles.sub}>{naira(p.amountPaid)} paid</span>}
                {p.kept && (
                  <span className={`${styles.sub} ${styles.narrowOnly}`} data-testid="net-narrow">
                    net {naira(p.kept.net)}
                  </span>
                )}
                {p.refundAdvised && (
                  <span className={held.held} data-testid="refund-advised">
                    {naira(p.refundAdvised.received)} received · {naira(p.refundAdvised.amount)} refundable
                  </span>
                )}
                {p.owedBack && (
                  <span className={held.held} data-testid="owed-back">
                    {naira(p.owedBack)} arrived late · owed back
                  </span>
                )}
              </td>
              <td className={`num ${styles.wide}`} data-testid="net">
                {p.kept === null ? (
                  <span className="muted">—</span>
                ) : (
                  <>
                    {naira(p.kept.net)}
                    <span className={styles.sub}>fee {naira(p.kept.fee)}</span>
                  </>
                )}
              </td>
              <td className={styles.reference}>
                <a href={paymentHref(p.paymentReference)} className={styles.rowLink}>
                  {p.paymentReference}
                </a>
                <span className={`${styles.sub} ${styles.narrowOnly}`}>
                  {channelLabel(p.paymentType)} · {lagosDateTime(p.createdAt)}
                </span>
              </td>
              <td className={styles.wide}>
                {p.customerName}
                <span className={styles.sub}>{p.customerEmail}</span>
              </td>
              <td className={styles.wide}>{channelLabel(p.paymentType)}</td>
              <td className={`${styles.when} ${styles.wide}`}>{lagosDateTime(p.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
