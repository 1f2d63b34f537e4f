// The Paystack double's refunds, as Paystack's Refund API describes them (https://paystack.com/docs/api/refund/ and
// PaystackOSS/openapi dist/paystack.yaml: RefundCreate, RefundRetry, RefundListResponse): create, fetch, list, and
// retry with the customer's account. A refund Paystack cannot return to the payment's source (common for USSD and
// transfers) is `needs-attention` (refund.needs-attention) until the merchant gives the customer's account through
// POST /refund/retry_with_customer_details/{id}; then it is processed like any other (https://paystack.com/docs/payments/refunds/).
import { randomInt } from "node:crypto";
import type { DoubleAnswer, DoubleRequest } from "../test-double/double-server";
import type { FaultPlan } from "../test-double/faults";
import type { WebhookOutbox } from "../test-double/webhook-outbox";
import type { DoubleRefund, PaystackLedger } from "./double-ledger";
import { refundEventView, refundListView, refundView } from "./double-refund-records";
import { PAYSTACK_BANKS } from "./double-banks";
import { fields, koboOf, listWindow, ok, refused } from "./double-answers";

export type RefundDesk = {
  refund: (p: string[], req: DoubleRequest) => DoubleAnswer;
  fetchRefund: (p: string[]) => DoubleAnswer;
  listRefunds: (p: string[], req: DoubleRequest) => DoubleAnswer;
  retry: (p: string[], req: DoubleRequest) => DoubleAnswer;
  /** Control: POST /_double/refunds/{id}/status {"status": "processed"|"failed"}: Paystack settles a needs-attention
   * refund by itself (the merchant gave the customer's account on Paystack's dashboard, or it was given up there), or
   * a processing one the bank has finished with. */
  settleHeld: (p: string[], req: DoubleRequest) => DoubleAnswer;
  /** How many of the next refunds Paystack cannot return by itself (control: POST /_double/integration). */
  needAttention: { next: number };
  /** How many of the next refunds stop at `processing` (refund.processing) until settled by the control above. */
  holdProcessing: { next: number };
  /** List Refunds' records as Paystack's own samples show them, the transaction by id only and no notes
   * (PaystackOSS/doc-code-snippets src/api/refunds/list/response.json), not as its OpenAPI requires them. */
  listedAsSample: { on: boolean };
  close: () => void;
};

export function refundDesk(ledger: PaystackLedger, outbox: WebhookOutbox, faults: FaultPlan, delayMs: number): RefundDesk {
  const timers = new Set<NodeJS.Timeout>();
  const needAttention = { next: 0 };
  const holdProcessing = { next: 0 };
  const listedAsSample = { on: false };
  const announce = (r: DoubleRefund) =>
    outbox.send(`refund.${r.status}`, { event: `refund.${r.status}`, data: refundEventView(r, ledger.domain) });

  /** Pays the refund out after a while (or fails it under the refund-fails fault), announcing the outcome; or stops it at
   * `processing`, as Paystack shows a refund the bank is still working on (refund.processing). */
  function processLater(r: DoubleRefund): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (holdProcessing.next > 0) {
        holdProcessing.next -= 1;
        r.status = "processing";
        return announce(r);
      }
      r.status = faults.take(["refund-fails"]) ? "failed" : "processed";
      r.refundedAt = r.status === "processed" ? new Date() : null;
      r.refundReference = r.status === "processed" ? String(randomInt(100000000000, 999999999999)) : null;
      announce(r);
    }, delayMs);
    timers.add(timer);
  }

  function refund(_p: string[], req: DoubleRequest): DoubleAnswer {
    const b = fields(req.json);
    if (!b || (typeof b.transaction !== "string" && typeof b.transaction !== "number"))
      return refused(400, "Transaction reference or id is required", { type: "validation_error" });
    const tx = ledger.find(String(b.transaction));
    if (!tx) return refused(404, "Transaction not found", { type: "validation_error" });
    if (tx.status !== "success") return refused(400, "Cannot refund a transaction that was not successful", { type: "validation_error" });
    if (b.currency !== undefined && b.currency !== tx.currency)
      return refused(400, "Currency does not match the transaction's", { type: "validation_error" });
    const amount = b.amount === undefined ? ledger.refundable(tx) : koboOf(b.amount);
    if (amount === null || amount <= 0) return refused(400, "Invalid Amount Sent", { type: "validation_error" });
    if (amount > ledger.refundable(tx))
      return refused(400, "Refund amount cannot be more than the transaction amount left to refund", { type: "validation_error" });
    const r = ledger.openRefund(
      tx,
      amount,
      String(b.customer_note ?? `Refund for transaction ${tx.reference}`),
      String(b.merchant_note ?? `Refund for transaction ${tx.reference}`),
    );
    announce(r);
    if (needAttention.next > 0) {
      needAttention.next -= 1;
      const timer = setTimeout(() => {
        timers.delete(timer);
        r.status = "needs-attention";
        announce(r);
      }, delayMs);
      timers.add(timer);
    } else processLater(r);
    return ok("Refund has been queued for processing", {
      ...refundView(r, ledger.domain),
      transaction: { ...ledger.transactionView(tx), id: tx.id },
      channel: null,
    });
  }

  function fetchRefund([id = ""]: string[]): DoubleAnswer {
    const r = ledger.refunds.get(Number(id));
    return r ? ok("Refund retrieved", refundView(r, ledger.domain)) : refused(404, "Refund not found");
  }

  /** POST /refund/retry_with_customer_details/{id}: only a needs-attention refund, to a real account of a listed bank. */
  function retry([id = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const r = ledger.refunds.get(Number(id));
    if (!r) return refused(404, "Refund not found");
    const d = fields(fields(req.json)?.refund_account_details);
    if (!d) return refused(400, "refund_account_details is required", { type: "validation_error" });
    // Paystack's own refusal (dist/api/refunds/retry/response.json#422 in PaystackOSS/doc-code-snippets).
    if (r.status !== "needs-attention")
      return refused(422, 'Invalid Refund state, refund status should be "needs-attention"', {
        meta: { nextStep: "Ensure that the value(s) you're passing are valid." },
        type: "validation_error",
        code: "invalid_params",
      });
    const bank = PAYSTACK_BANKS.find((b) => String(b.id) === String(d.bank_id));
    if (!bank) return refused(400, "Invalid bank_id", { type: "validation_error" });
    if (d.currency !== r.transaction.currency) return refused(400, "Currency must be the transaction's", { type: "validation_error" });
    if (typeof d.account_number !== "string" || !/^\d{10}$/.test(d.account_number))
      return refused(400, "Invalid account number", { type: "validation_error" });
    r.status = "pending";
    r.customerAccount = { accountNumber: d.account_number, bankId: bank.id };
    processLater(r);
    return ok("Refund retried", refundView(r, ledger.domain));
  }

  function settleHeld([id = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const r = ledger.refunds.get(Number(id));
    if (!r) return { status: 404, body: { error: `no refund ${id}` } };
    if (r.status !== "needs-attention" && r.status !== "processing") return { status: 409, body: { error: `refund is ${r.status}` } };
    const status = fields(req.json)?.status;
    if (status !== "processed" && status !== "failed") return { status: 400, body: { error: "status: processed or failed" } };
    r.status = status;
    r.refundedAt = status === "processed" ? new Date() : null;
    r.refundReference = status === "processed" ? String(randomInt(100000000000, 999999999999)) : null;
    announce(r);
    return ok("Moved", refundView(r, ledger.domain));
  }

  /** GET /refund (List Refunds): newest first, `from`/`to` on the refund's creation, `perPage` (default 50) and `page`. */
  function listRefunds(_p: string[], req: DoubleRequest): DoubleAnswer {
    const q = req.query;
    const window = listWindow(q);
    if ("status" in window) return window;
    const { from, to, perPage, page } = window;
    const all = [...ledger.refunds.values()].filter((r) => r.createdAt.getTime() >= from && r.createdAt.getTime() <= to).reverse();
    const data = all
      .slice((page - 1) * perPage, page * perPage)
      .map((r) => refundListView(r, ledger.domain))
      .map((r) => (listedAsSample.on ? { ...r, transaction_reference: undefined, merchant_note: undefined } : r));
    const failedRefundCount = all.filter((r) => r.status === "failed").length;
    const meta = {
      total: all.length,
      skipped: (page - 1) * perPage,
      perPage: String(perPage),
      page,
      pageCount: Math.max(1, Math.ceil(all.length / perPage)),
      failedRefundCount,
    };
    return { status: 200, body: { status: true, message: "Refunds retrieved", data, meta } };
  }

  return {
    settleHeld,
    refund,
    fetchRefund,
    listRefunds,
    retry,
    needAttention,
    holdProcessing,
    listedAsSample,
    close: () => {
      for (const t of timers) clearTimeout(t);
    },
  };
}
