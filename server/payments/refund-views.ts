// Refunds as the merchant sees them: one refund as it stands (REST, and the answer to each move the merchant makes),
// and a payment's refunds for the dashboard.
import { and, asc, eq } from "drizzle-orm";
import { db, type Db } from "../../db/client";
import { refunds, type RefundRow } from "../../db/schema";
import { ApiError } from "../api-error";
import type { Scope } from "../merchants/scope";
import { findPayment } from "./lookup";
import { formatKobo } from "../money";

/** A refund as the merchant sees it. */
export function refundView(r: RefundRow) {
  return {
    refundReference: r.refundReference,
    amount: formatKobo(r.amountKobo),
    status: r.status,
    reason: r.reason,
    createdAt: new Date(r.createdAt).toISOString(),
    settledAt: r.settledAt === null ? null : new Date(r.settledAt).toISOString(),
    failureReason: r.failureReason,
  };
}
export type RefundView = Awaited<ReturnType<typeof refundView>>;

/** One refund as it stands now, under a message saying what just happened to it. */
export type RefundStanding<M extends string = string> = {
  code: "00";
  message: M;
  refund: { refundReference: string; amount: string; status: RefundRow["status"]; reason: string; createdAt: string };
};

export function standing<M extends string>(message: M, r: RefundRow): RefundStanding<M> {
  const { refundReference, amount, status, reason, createdAt } = refundView(r);
  return { code: "00", message, refund: { refundReference, amount, status, reason, createdAt } };
}

/** The merchant's refund by the payment's and its own reference; another merchant's is not found. */
export async function merchantRefund({ merchantId, mode }: Scope, paymentReference: string, refundReference: string) {
  const p = await findPayment({ merchantId, mode }, paymentReference);
  const [r] = await db()
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, p.id), eq(refunds.refundReference, refundReference)));
  if (!r) throw new ApiError("S404", `No refund with reference ${refundReference} on ${paymentReference}`);
  return { p, r };
}

/** GET /api/v2/payments/{paymentReference}/refunds/{refundReference}: also the question a chained Owo's SeerBit
 * connector asks before it believes an unsigned refund notice. */
export async function refundStatus(scope: Scope, paymentReference: string, refundReference: string): Promise<RefundStanding<"Successful">> {
  return standing("Successful", (await merchantRefund(scope, paymentReference, refundReference)).r);
}

/** The payment's refunds, oldest first, for the dashboard: each flagged while the provider's answer to it is unknown. */
export async function refundsOf(q: Db, paymentId: number): Promise<(RefundView & { providerDidNotAnswer: boolean })[]> {
  return (await q.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(asc(refunds.createdAt))).map((r) => ({
    ...refundView(r),
    providerDidNotAnswer: r.status === "PENDING" && r.providerRefundId === null && r.unansweredAt !== null,
  }));
}
