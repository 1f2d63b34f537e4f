// API.md's status table: what each payment status answers as data.code and message.
import type { PaymentStatus } from "../../db/schema";

export const STATUS_ANSWER: Record<PaymentStatus, { code: string; message: string }> = {
  PENDING: { code: "S20", message: "Transaction is pending" },
  PARTIALLY_PAID: { code: "S20", message: "Partially paid; awaiting the balance" },
  SUCCESSFUL: { code: "00", message: "Successful" },
  FAILED: { code: "S12", message: "Transaction Failed" },
  EXPIRED: { code: "S0", message: "Transaction timed out" },
  CANCELLED: { code: "S13", message: "Transaction cancelled" },
};

export const OPEN_STATUSES: readonly PaymentStatus[] = ["PENDING", "PARTIALLY_PAID"];

export function isOpen(status: PaymentStatus): boolean {
  return OPEN_STATUSES.includes(status);
}
