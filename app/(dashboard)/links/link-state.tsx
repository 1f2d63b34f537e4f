import type { LinkState } from "@/server/links/links";
import styles from "./links.module.css";

const WORDS: Record<LinkState, string> = {
  accepting: "Active",
  busy: "Payment in progress",
  used: "Paid (single use)",
  inactive: "Deactivated",
};

export function LinkStateBadge({ state }: { state: LinkState }) {
  return <span className={`${styles.state} ${styles[state]}`}>{WORDS[state]}</span>;
}
