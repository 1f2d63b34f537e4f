// Finding a merchant's payment: by its reference, within one merchant and mode.
import { and, eq, sql } from "drizzle-orm";
import { preparedQueries } from "../../db/client";
import { payments, type Mode, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";

const byReference = preparedQueries((db) =>
  db
    .select()
    .from(payments)
    .where(and(eq(payments.merchantId, sql.placeholder("merchantId")), eq(payments.mode, sql.placeholder("mode")), eq(payments.paymentReference, sql.placeholder("paymentReference"))))
    .prepare(),
);

/** The merchant's own payment by its reference; another merchant's is simply not found. */
export function findPayment(merchantId: string, mode: Mode, paymentReference: string): PaymentRow {
  const p = byReference().get({ merchantId, mode, paymentReference });
  if (!p) throw new ApiError("S404", `No payment with reference ${paymentReference}`);
  return p;
}
