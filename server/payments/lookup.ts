// Finding a merchant's payment: by its reference, within one merchant and mode.
import { and, eq, sql } from "drizzle-orm";
import { db, prepared, type Db } from "../../db/client";
import { payments, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";
import type { Scope } from "../merchants/scope";

// Every verification asks this, so it is compiled once (db/client.ts prepared).
const byReference = prepared((db) =>
  db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.merchantId, sql.placeholder("merchantId")),
        eq(payments.mode, sql.placeholder("mode")),
        eq(payments.paymentReference, sql.placeholder("paymentReference")),
      ),
    ),
);

/**
 * The merchant's own payment by its reference; another merchant's is simply not found. `q`: the committed state, or the
 * snapshot or tx the caller holds (the doors leave it out).
 */
export async function findPayment({ merchantId, mode }: Scope, paymentReference: string, q: Db = db()): Promise<PaymentRow> {
  const [p] = await byReference(q, { merchantId, mode, paymentReference });
  if (!p) throw new ApiError("S404", `No payment with reference ${paymentReference}`);
  return p;
}
