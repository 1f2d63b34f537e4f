// A settlement's status and its reconciliation, as badges: the first thing a finance team scans for.
import { SETTLEMENT_STATUS_LABEL } from "@/app/settlement-display";
import type { SettlementView } from "@/server/settlements/view";
import styles from "../books.module.css";

export function SettlementStatus({ status }: { status: SettlementView["status"] }) {
  return (
    <span className={`badge ${styles[status]}`} data-testid="settlement-status">
      {SETTLEMENT_STATUS_LABEL[status]}
    </span>
  );
}

export function ReconciliationBadge({ reconciliation }: { reconciliation: SettlementView["reconciliation"] }) {
  const { status, exceptions } = reconciliation;
  const text =
    status === "matched"
      ? "Matched"
      : status === "unchecked"
        ? "Not checked yet"
        : exceptions === 1
          ? "1 exception"
          : `${exceptions} exceptions`;
  return <span className={`badge ${styles[status]}`}>{text}</span>;
}

export function settlementHref(settlementId: string): string {
  return `/settlements/${encodeURIComponent(settlementId)}`;
}
