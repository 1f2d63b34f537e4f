// Finding a merchant's payment: by its reference, within one merchant and mode.
import { and, eq } from "drizzle-orm";
import { db } from "../../db/client";
import { payments, type Mode, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";

/** The merchant's own payment by its reference; another merchant's is simply not found. */
export async function findPayment(merchantId: string, mode: Mode, paymentReference: string): Promise<PaymentRow> {
  const [p] = await db()
    .select()
    .from(payments)
    .where(and(eq(payments.merchantId, merchantId), eq(payments.mode, mode), eq(payments.paymentReference, paymentReference)));
  if (!p) throw new ApiError("S404", `No payment with reference ${paymentReference}`);
  return p;
}
