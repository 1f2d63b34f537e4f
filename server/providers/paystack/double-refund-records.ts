// The Paystack double's refunds as Paystack writes them (https://paystack.com/docs/api/refund/ and PaystackOSS/openapi
// dist/paystack.yaml): Fetch Refund's record, a List Refunds record (RefundListResponseArray) and what a refund.*
// event carries, including a refund Paystack made to pay a lost dispute back (its `dispute`).
import type { DoubleRefund } from "./double-ledger";

type Domain = "test" | "live";

export function refundView(r: DoubleRefund, domain: Domain): Record<string, unknown> {
  return {
    integration: 412829,
    transaction: r.transaction.id,
    dispute: r.dispute ?? null,
    settlement: r.settlement ?? null,
    domain,
    amount: r.amount,
    deducted_amount: r.status === "processed" ? r.amount : 0,
    fully_deducted: r.status === "processed",
    currency: r.transaction.currency,
    channel: r.transaction.channel,
    status: r.status,
    refunded_by: "owo-double@example.com",
    refunded_at: r.refundedAt?.toISOString() ?? null,
    expected_at: new Date(r.createdAt.getTime() + 24 * 3600 * 1000).toISOString(),
    customer_note: r.customerNote,
    merchant_note: r.merchantNote,
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    updatedAt: (r.refundedAt ?? r.createdAt).toISOString(),
  };
}

/** The fields of Fetch Refund's record a List Refunds record repeats, in its order. */
const LISTED = [
  "integration",
  "transaction",
  "dispute",
  "settlement",
  "id",
  "domain",
  "currency",
  "amount",
  "status",
  "refunded_at",
  "refunded_by",
  "customer_note",
  "merchant_note",
  "deducted_amount",
] as const;

/** A List Refunds record (Paystack's RefundListResponseArray): the transaction by id and by reference, both notes. */
export function refundListView(r: DoubleRefund, domain: Domain): Record<string, unknown> {
  const view = refundView(r, domain);
  return {
    ...Object.fromEntries(LISTED.map((k) => [k, view[k]])),
    fully_deducted: view.fully_deducted ? 1 : 0,
    createdAt: view.createdAt,
    bank_reference: null,
    transaction_reference: r.transaction.reference,
    reason: view.customer_note,
    customer: {
      id: 181873746,
      first_name: "",
      last_name: "",
      email: r.transaction.email,
      customer_code: "CUS_1rkzaqsv4rrhqo6",
      phone: null,
      metadata: "",
      risk_action: "default",
      international_format_phone: "",
    },
    refund_type: r.amount === r.transaction.amount ? "full" : "partial",
    transaction_amount: r.transaction.amount,
    initiated_by: "api",
    refund_channel: r.transaction.channel,
    session_id: null,
    collect_account_number: false,
  };
}

/** What a refund.* event carries. */
export function refundEventView(r: DoubleRefund, domain: Domain): Record<string, unknown> {
  // refund.needs-attention's sample names the refund's id and both notes, and no processor (webhook-refund-needs-attention.json).
  if (r.status === "needs-attention")
    return {
      status: r.status,
      transaction_reference: r.transaction.reference,
      refund_reference: r.refundReference,
      amount: r.amount,
      currency: r.transaction.currency,
      customer: { first_name: null, last_name: null, email: r.transaction.email },
      integration: 412829,
      domain,
      id: String(r.id),
      customer_note: r.customerNote,
      merchant_note: r.merchantNote,
    };
  return {
    status: r.status,
    transaction_reference: r.transaction.reference,
    refund_reference: r.refundReference,
    amount: String(r.amount),
    currency: r.transaction.currency,
    processor: "instant-transfer",
    customer: { first_name: null, last_name: null, email: r.transaction.email },
    integration: 412829,
    domain,
  };
}
