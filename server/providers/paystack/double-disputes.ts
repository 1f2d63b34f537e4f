// The Paystack double's disputes: a customer's bank wins one against the merchant on demand (a chargeback), as
// Paystack shows it. Paystack takes the money back, reports the transaction reversed and sends charge.dispute.resolve
// as its webhooks page shows it (dist/doc/payments/webhooks/events.js#charge_dispute_resolve in
// PaystackOSS/doc-code-snippets): refund_amount, category chargeback, the transaction nested. The money goes back as a
// refund of refund_amount naming its dispute (DisputeResolve.refund_amount, RefundListResponseArray.dispute in
// PaystackOSS/openapi), which the next settlement deducts like any refund.
import type { DoubleAnswer, DoubleRequest } from "../test-double/double-server";
import type { WebhookOutbox } from "../test-double/webhook-outbox";
import type { PaystackLedger } from "./double-ledger";
import { fields, koboOf } from "./double-answers";

/** Control: POST /_double/transactions/{reference}/chargeback {"amount"?}: a dispute resolved against the merchant. */
export function disputeDesk(
  ledger: PaystackLedger,
  outbox: WebhookOutbox,
): { chargeback: (p: string[], req: DoubleRequest) => DoubleAnswer } {
  let nextDisputeId = 358949;
  function chargeback([reference = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    if (!tx) return { status: 404, body: { error: `no transaction ${reference}` } };
    if (tx.status !== "success") return { status: 409, body: { error: `transaction is ${tx.status}` } };
    const asked = fields(req.json)?.amount;
    const amount = asked === undefined ? ledger.refundable(tx) : koboOf(asked);
    if (amount === null || amount > ledger.refundable(tx))
      return { status: 400, body: { error: "amount: kobo, at most what is refundable" } };
    tx.status = "reversed";
    const now = new Date().toISOString();
    const id = nextDisputeId++;
    const paidBack = ledger.openRefund(tx, amount, "Chargeback", `Dispute ${id} resolved against the merchant`);
    Object.assign(paidBack, { status: "processed", refundedAt: new Date(), dispute: id });
    const data = {
      id,
      refund_amount: amount,
      currency: tx.currency,
      status: "resolved",
      resolution: "auto-accepted",
      domain: ledger.domain,
      transaction: ledger.transactionView(tx),
      transaction_reference: null,
      category: "chargeback",
      customer: { id: 181873746, first_name: null, last_name: null, email: tx.email, customer_code: "CUS_1rkzaqsv4rrhqo6" },
      bin: "XXXXXX",
      last4: "XXXX",
      dueAt: now,
      resolvedAt: now,
      evidence: null,
      attachments: null,
      note: null,
      history: [{ status: "pending", by: "owo-double@example.com", createdAt: now }],
      messages: [{ sender: "owo-double@example.com", body: "Customer complained about debit without value", createdAt: now }],
      created_at: now,
      updated_at: now,
    };
    outbox.send("charge.dispute.resolve", { event: "charge.dispute.resolve", data });
    return { status: 200, body: { outcome: "reversed", dispute: data } };
  }

  return { chargeback };
}
