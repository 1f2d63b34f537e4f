// Who the customer pays, as the merchant's business profile presents it: its logo beside its name, and how to reach it.
// Shown on the hosted checkout, the payment link's pages and their receipts, and previewed on the Business page.
import type { ForCustomers } from "@/server/merchants/business-profile";
import styles from "./business-identity.module.css";

export function BusinessMark({ name, logoUrl, className }: { name: string; logoUrl: string | null; className?: string }) {
  return (
    <div className={`${styles.mark} ${className ?? ""}`} data-testid="business-mark">
      {/* The logo sits beside the name, never instead of it: a customer reads who they pay. */}
      {logoUrl && <img src={logoUrl} alt="" className={styles.logo} height={40} />}
      <span>{name}</span>
    </div>
  );
}

/** A phone number as a tel: link dials it: the digits and a leading +, without the spaces people group them with. */
const dial = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

export function SupportContact({ business }: { business: ForCustomers }) {
  const { supportEmail, supportPhone } = business;
  if (!supportEmail && !supportPhone) return null;
  return (
    <p className={styles.support} data-testid="support-contact">
      Questions about this payment? {supportEmail && <a href={`mailto:${supportEmail}`}>{supportEmail}</a>}
      {supportEmail && supportPhone && " · "}
      {supportPhone && <a href={dial(supportPhone)}>{supportPhone}</a>}
    </p>
  );
}
