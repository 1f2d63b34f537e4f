// The Paystack double's customer, played by a test or the dashboard (POST /_double/transactions/{reference}/…): pays a
// charge (a transfer of the wrong amount, or into an expired account, is sent back and reported as
// bank.transfer.rejected), declines a USSD debit, lets a charge lapse, or shows it in flight.
import { randomInt } from "node:crypto";
import type { DoubleAnswer, DoubleRequest } from "../test-double/double-server";
import type { FaultPlan } from "../test-double/faults";
import type { WebhookOutbox } from "../test-double/webhook-outbox";
import { controlError, fields, koboOf } from "./double-answers";
import type { DoubleTransaction, PaystackLedger } from "./double-ledger";

type Control = (p: string[], req: DoubleRequest) => DoubleAnswer;

export function customerDesk(
  ledger: PaystackLedger,
  outbox: WebhookOutbox,
  faults: FaultPlan,
): { pay: Control; decline: Control; expire: Control; showStatus: Control } {
  /** The customer pays: a USSD debit is all or nothing; a transfer of the wrong amount is sent back by Paystack. */
  function pay([reference = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    if (!tx) return controlError(404, `no transaction ${reference}`);
    const asked = fields(req.json)?.amount;
    const amount = asked === undefined ? ledger.charged(tx) : koboOf(asked);
    if (amount === null) return controlError(400, "amount: must be a positive integer of kobo");
    const currency = fields(req.json)?.currency;
    if (currency !== undefined) {
      if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency)) return controlError(400, "currency: must be a code such as USD");
      tx.currency = currency;
    }
    if (tx.channel === "ussd") {
      if (amount !== ledger.charged(tx)) return controlError(400, "a USSD debit is the whole amount or nothing");
      if (ledger.statusOf(tx) !== "pending") return controlError(409, `transaction is ${ledger.statusOf(tx)}`);
      return settle(tx, "Payment successful");
    }
    const expired = ledger.statusOf(tx) === "abandoned";
    if (tx.status === "pending" && !expired && amount === ledger.charged(tx)) return settle(tx, "Approved");
    // Paystack's temporary accounts take one exact payment; anything else it returns to the sender itself.
    const why = expired ? "account expired" : tx.status !== "pending" ? "account already paid" : "incorrect amount sent";
    const type = expired ? "ACCOUNT_EXPIRED" : tx.status !== "pending" ? "ACCOUNT_USED" : "INCORRECT_AMOUNT";
    const transactionId = String(randomInt(3100000000, 3200000000));
    tx.reversals.push({ amount, reason: why, transactionId, at: new Date() });
    outbox.send("bank.transfer.rejected", {
      event: "bank.transfer.rejected",
      data: {
        bank_transfer: { amount: String(amount), message: why, message_type: type, transaction_id: transactionId },
        customer: {
          first_name: null,
          last_name: null,
          email: tx.email,
          phone: null,
          metadata: null,
          domain: ledger.domain,
          customer_code: "CUS_1qjgujjddixs8gd",
          risk_action: "default",
        },
      },
    });
    return { status: 200, body: { outcome: "reversed", reason: why, transaction: ledger.transactionView(tx) } };
  }

  function settle(tx: DoubleTransaction, gatewayResponse: string): DoubleAnswer {
    tx.status = "success";
    tx.paidAt = new Date();
    tx.gatewayResponse = gatewayResponse;
    const mismatch = faults.take(["amount-mismatch"]) !== null;
    outbox.send("charge.success", { event: "charge.success", data: ledger.transactionView(tx, ledger.charged(tx) * (mismatch ? 2 : 1)) });
    return { status: 200, body: { outcome: "paid", transaction: ledger.transactionView(tx) } };
  }

  function decline([reference = ""]: string[]): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    if (!tx) return controlError(404, `no transaction ${reference}`);
    if (tx.channel !== "ussd") return controlError(400, "only a USSD debit can be declined; a transfer is simply never made");
    if (tx.status !== "pending") return controlError(409, `transaction is ${tx.status}`);
    tx.status = "failed";
    tx.gatewayResponse = "Declined";
    return { status: 200, body: { outcome: "declined", transaction: ledger.transactionView(tx) } };
  }

  /** Lets a charge lapse now instead of waiting out its time: verify says abandoned, a late transfer is sent back. */
  function expire([reference = ""]: string[]): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    if (!tx) return controlError(404, `no transaction ${reference}`);
    if (tx.status !== "pending") return controlError(409, `transaction is ${tx.status}`);
    tx.lapsedAt = new Date();
    if (tx.account) tx.account.expiresAt = tx.lapsedAt;
    return { status: 200, body: { outcome: "abandoned", transaction: ledger.transactionView(tx) } };
  }

  /** A pending charge as Paystack shows it while the customer is on it (ongoing) or the bank is (processing, queued). */
  function showStatus([reference = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    const status = fields(req.json)?.status;
    if (!tx) return controlError(404, `no transaction ${reference}`);
    if (status !== "ongoing" && status !== "processing" && status !== "queued" && status !== "pending")
      return controlError(400, "status: one of ongoing, processing, queued, pending");
    if (tx.status !== "pending") return controlError(409, `transaction is ${tx.status}`);
    tx.inFlight = status === "pending" ? undefined : status;
    return { status: 200, body: { transaction: ledger.transactionView(tx) } };
  }

  return { pay, decline, expire, showStatus };
}
