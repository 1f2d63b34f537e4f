// The Paystack double's disputes: a customer's bank wins one against the merchant on demand (a chargeback), as
// Paystack shows it. Paystack takes the money back, reports the transaction reversed and sends charge.dispute.resolve
// as its webhooks page shows it (dist/doc/payments/webhooks/events.js#charge_dispute_resolve in
// PaystackOSS/doc-code-snippets): refund_amount, category chargeback, the transaction nested. The money goes back as a
// refund of refund_amount naming its dispute (DisputeResolve.refund_amount, RefundListResponseArray.dispute in
// PaystackOSS/openapi), which the next settlement deducts like any refund. Its disputes are listed as List Disputes
// lists them (GET /dispute, operationId dispute_list in ../shared/providers/paystack-openapi.yaml: `transaction` is
// the transaction's id, `status` one of four, `from`/`to` dates, `perPage`/`page`; DisputeListResponse's data and meta).
import type { DoubleAnswer, DoubleRequest } from "../test-double/double-server";
import type { WebhookOutbox } from "../test-double/webhook-outbox";
import type { DoubleTransaction, PaystackLedger } from "./double-ledger";
import { fields, koboOf, listWindow } from "./double-answers";

type DoubleDispute = { id: number; tx: DoubleTransaction; amount: number; at: Date };

export type DisputeDesk = {
  /** Control: POST /_double/transactions/{reference}/chargeback {"amount"?}: a dispute resolved against the merchant. */
  chargeback: (p: string[], req: DoubleRequest) => DoubleAnswer;
  /** GET /dispute (List Disputes): newest first. */
  list: (p: string[], req: DoubleRequest) => DoubleAnswer;
};

export function disputeDesk(ledger: PaystackLedger, outbox: WebhookOutbox): DisputeDesk {
  let nextDisputeId = 358949;
  const disputes: DoubleDispute[] = [];

  /** A dispute as Paystack shows it (DisputeListResponseArray), its transaction as it stands now. */
  function view(d: DoubleDispute) {
    const at = d.at.toISOString();
    return {
      id: d.id,
      refund_amount: d.amount,
      currency: d.tx.currency,
      status: "resolved",
      resolution: "auto-accepted",
      domain: ledger.domain,
      transaction: ledger.transactionView(d.tx),
      transaction_reference: null,
      category: "chargeback",
      customer: {
        id: 181873746,
        first_name: null,
        last_name: null,
        email: d.tx.email,
        customer_code: "CUS_1rkzaqsv4rrhqo6",
        phone: null,
        metadata: null,
        risk_action: "default",
        international_format_phone: null,
      },
      bin: "XXXXXX",
      last4: "XXXX",
      dueAt: at,
      resolvedAt: at,
      evidence: null,
      attachments: null,
      note: null,
      history: [{ status: "pending", by: "owo-double@example.com", createdAt: at }],
      messages: [{ sender: "owo-double@example.com", body: "Customer complained about debit without value", createdAt: at }],
    };
  }

  function chargeback([reference = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    if (!tx) return { status: 404, body: { error: `no transaction ${reference}` } };
    if (tx.status !== "success") return { status: 409, body: { error: `transaction is ${tx.status}` } };
    const asked = fields(req.json)?.amount;
    const amount = asked === undefined ? ledger.refundable(tx) : koboOf(asked);
    if (amount === null || amount > ledger.refundable(tx))
      return { status: 400, body: { error: "amount: kobo, at most what is refundable" } };
    tx.status = "reversed";
    const d: DoubleDispute = { id: nextDisputeId++, tx, amount, at: new Date() };
    disputes.push(d);
    const paidBack = ledger.openRefund(tx, amount, "Chargeback", `Dispute ${d.id} resolved against the merchant`);
    Object.assign(paidBack, { status: "processed", refundedAt: new Date(), dispute: d.id });
    // The webhook's sample spells its times created_at/updated_at; the list's, createdAt/updatedAt.
    const data = { ...view(d), created_at: d.at.toISOString(), updated_at: d.at.toISOString() };
    outbox.send("charge.dispute.resolve", { event: "charge.dispute.resolve", data });
    return { status: 200, body: { outcome: "reversed", dispute: data } };
  }

  function list(_p: string[], req: DoubleRequest): DoubleAnswer {
    const q = req.query;
    const window = listWindow(q);
    if ("status" in window) return window;
    const { from, to, perPage, page } = window;
    const transaction = q.get("transaction");
    const status = q.get("status");
    // Every dispute here is resolved (the double's disputes are chargebacks already decided).
    const all = disputes
      .filter((d) => transaction === null || String(d.tx.id) === transaction)
      .filter((d) => (status === null || status === "resolved") && d.at.getTime() >= from && d.at.getTime() <= to)
      .reverse();
    const data = all.slice((page - 1) * perPage, page * perPage).map((d) => {
      const at = d.at.toISOString();
      return { ...view(d), createdAt: at, updatedAt: at };
    });
    const meta = {
      total: all.length,
      skipped: (page - 1) * perPage,
      perPage,
      page,
      pageCount: Math.max(1, Math.ceil(all.length / perPage)),
    };
    return { status: 200, body: { status: true, message: "Disputes retrieved", data, meta } };
  }

  return { chargeback, list };
}
