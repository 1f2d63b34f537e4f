// The Paystack test double: Paystack's HTTP API as its docs describe it (pages cited in ./paystack.ts), as strict
// as Paystack — a wrong key is 401 "Invalid key", amounts must be integer kobo, `ussd.type` one of its four, a
// reference is used once — plus control routes (/_double/…) where a test or the dashboard plays the customer and
// arms faults. What Paystack does by itself, it does too: a transfer of the wrong amount (or into an expired
// account) is sent back to the sender and reported as `bank.transfer.rejected`; refunds are processed and then
// announced by `refund.processed`. Its webhooks are signed with x-paystack-signature as Paystack signs them.
// Paystack sends no webhook for a declined charge: a decline is seen only by verify, and so here.
import { randomBytes, randomInt } from "node:crypto";
import { FaultPlan } from "../test-double/faults";
import {
  createDoubleServer,
  type DoubleAnswer,
  type DoubleRequest,
  type DoubleRoute,
  type DoubleServer,
} from "../test-double/double-server";
import { WebhookOutbox } from "../test-double/webhook-outbox";
import { ACCOUNT_LIFETIME_MS, PaystackLedger, TEST_TRANSFER_BANK, type DoubleTransaction } from "./double-ledger";
import { PAYSTACK_USSD_TYPES } from "./paystack";
import { PAYSTACK_SIGNATURE_HEADER, paystackSignature } from "./signature";

export type PaystackDoubleOptions = { secretKey: string; webhookUrl?: string; refundDelayMs?: number };

const refused = (status: number, message: string, extra: Record<string, unknown> = {}): DoubleAnswer => ({
  status,
  body: { status: false, message, ...extra },
});
const ok = (message: string, data: unknown): DoubleAnswer => ({ status: 200, body: { status: true, message, data } });
const controlError = (status: number, error: string): DoubleAnswer => ({ status, body: { error } });

/** Paystack's kobo: a JSON integer, or a string of digits as its own curl samples send ("10000"). */
function koboOf(v: unknown): number | null {
  if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === "string" && /^[1-9]\d{0,14}$/.test(v)) return Number(v);
  return null;
}

function fields(json: unknown): Record<string, unknown> | null {
  return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
}

export function createPaystackDouble(o: PaystackDoubleOptions): DoubleServer {
  const secretKey = o.secretKey;
  const ledger = new PaystackLedger(secretKey.startsWith("sk_live_") ? "live" : "test");
  const faults = new FaultPlan();
  const outbox = new WebhookOutbox(faults, (body) => ({ [PAYSTACK_SIGNATURE_HEADER]: paystackSignature(body, secretKey) }), o.webhookUrl);
  const timers = new Set<NodeJS.Timeout>();
  const refundDelayMs = o.refundDelayMs ?? 50;

  const authorized = (fn: (params: string[], req: DoubleRequest) => DoubleAnswer) => (params: string[], req: DoubleRequest) =>
    req.headers.authorization === `Bearer ${secretKey}` ? fn(params, req) : refused(401, "Invalid key");

  function charge(_p: string[], req: DoubleRequest): DoubleAnswer {
    const b = fields(req.json);
    if (!b) return refused(400, "Invalid JSON body");
    if (typeof b.email !== "string" || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(b.email))
      return refused(400, "Invalid Email Address Passed", { type: "validation_error" });
    const amount = koboOf(b.amount);
    if (amount === null) return refused(400, "Invalid Amount Sent", { type: "validation_error" });
    if (b.currency !== undefined && b.currency !== "NGN")
      return refused(400, "Currency not supported by merchant", { type: "validation_error" });
    const reference = b.reference === undefined ? randomBytes(5).toString("hex") : b.reference;
    if (typeof reference !== "string" || !/^[A-Za-z0-9.=-]{1,100}$/.test(reference)) {
      return refused(400, "Invalid transaction reference: only -, ., = and alphanumeric characters allowed", { type: "validation_error" });
    }
    if (ledger.transactions.has(reference)) {
      return refused(400, "Duplicate Transaction Reference", {
        meta: { nextStep: "Try and create the Transaction or Charge with a new reference" },
        type: "validation_error",
        code: "duplicate_reference",
      });
    }
    const ussd = fields(b.ussd);
    const transfer = fields(b.bank_transfer);
    if ((ussd ? 1 : 0) + (transfer ? 1 : 0) !== 1)
      return refused(400, "This double serves the ussd and bank_transfer channels: send exactly one", { type: "validation_error" });
    const opened = { reference, amount, currency: "NGN" as const, email: b.email, metadata: b.metadata };
    if (ussd) {
      const type = PAYSTACK_USSD_TYPES.find((t) => t === ussd.type);
      if (!type)
        return refused(400, `Invalid USSD type. Supported types are ${PAYSTACK_USSD_TYPES.join(", ")}`, { type: "validation_error" });
      const tx = ledger.open({ ...opened, channel: "ussd" }, { ussdType: type });
      const code = tx.ussd?.code ?? "";
      return ok("Charge attempted", {
        reference,
        status: "pay_offline",
        display_text: `Please dial ${code} on your mobile phone to complete the transaction`,
        ussd_code: code,
      });
    }
    const latest = Date.now() + ACCOUNT_LIFETIME_MS;
    const asked = transfer?.account_expires_at === undefined ? latest : Date.parse(String(transfer.account_expires_at));
    if (Number.isNaN(asked) || asked <= Date.now())
      return refused(400, "account_expires_at must be a date in the future", { type: "validation_error" });
    const tx = ledger.open({ ...opened, channel: "bank_transfer" }, { accountExpiresAt: new Date(Math.min(asked, latest)) });
    return ok("Charge attempted", {
      reference,
      status: "pending_bank_transfer",
      display_text: "Please make a transfer to the account specified",
      account_name: tx.account?.name,
      account_number: tx.account?.number,
      bank: TEST_TRANSFER_BANK,
      account_expires_at: tx.account?.expiresAt.toISOString(),
    });
  }

  function verify([reference = ""]: string[]): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    if (!tx) return refused(404, "Transaction reference not found", { type: "validation_error", code: "transaction_not_found" });
    return ok("Verification successful", ledger.transactionView(tx));
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
    outbox.send("refund.pending", { event: "refund.pending", data: ledger.refundEventView(r) });
    const timer = setTimeout(() => {
      timers.delete(timer);
      r.status = faults.take(["refund-fails"]) ? "failed" : "processed";
      r.refundedAt = r.status === "processed" ? new Date() : null;
      r.refundReference = r.status === "processed" ? String(randomInt(100000000000, 999999999999)) : null;
      outbox.send(`refund.${r.status}`, { event: `refund.${r.status}`, data: ledger.refundEventView(r) });
    }, refundDelayMs);
    timers.add(timer);
    const view = ledger.refundView(r);
    return ok("Refund has been queued for processing", {
      ...view,
      transaction: { ...ledger.transactionView(tx), id: tx.id },
      channel: null,
    });
  }

  function fetchRefund([id = ""]: string[]): DoubleAnswer {
    const r = ledger.refunds.get(Number(id));
    return r ? ok("Refund retrieved", ledger.refundView(r)) : refused(404, "Refund not found");
  }

  /** GET /refund (List Refunds): newest first, `from`/`to` on the refund's creation, `perPage` (default 50) and `page`. */
  function listRefunds(_p: string[], req: DoubleRequest): DoubleAnswer {
    const q = req.query;
    const from = q.get("from") === null ? -Infinity : Date.parse(q.get("from") ?? "");
    const to = q.get("to") === null ? Infinity : Date.parse(q.get("to") ?? "");
    const perPage = Number(q.get("perPage") ?? "50");
    const page = Number(q.get("page") ?? "1");
    if (Number.isNaN(from) || Number.isNaN(to))
      return refused(400, "Invalid date: from and to must be dates", { type: "validation_error" });
    if (!Number.isInteger(perPage) || perPage < 1 || !Number.isInteger(page) || page < 1)
      return refused(400, "perPage and page must be positive integers", { type: "validation_error" });
    const all = [...ledger.refunds.values()].filter((r) => r.createdAt.getTime() >= from && r.createdAt.getTime() <= to).reverse();
    const data = all.slice((page - 1) * perPage, page * perPage).map((r) => ledger.refundListView(r));
    const failedRefundCount = all.filter((r) => r.status === "failed").length;
    return {
      status: 200,
      body: {
        status: true,
        message: "Refunds retrieved",
        data,
        meta: {
          total: all.length,
          skipped: (page - 1) * perPage,
          perPage: String(perPage),
          page,
          pageCount: Math.max(1, Math.ceil(all.length / perPage)),
          failedRefundCount,
        },
      },
    };
  }

  function balance(): DoubleAnswer {
    let total = 0;
    for (const tx of ledger.transactions.values()) if (tx.status === "success") total += tx.amount;
    for (const r of ledger.refunds.values()) if (r.status !== "failed") total -= r.amount;
    return ok("Balances retrieved", [{ currency: "NGN", balance: total }]);
  }

  /** The customer pays: a USSD debit is all or nothing; a transfer of the wrong amount is sent back by Paystack. */
  function pay([reference = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    if (!tx) return controlError(404, `no transaction ${reference}`);
    const asked = fields(req.json)?.amount;
    const amount = asked === undefined ? tx.amount : koboOf(asked);
    if (amount === null) return controlError(400, "amount: must be a positive integer of kobo");
    const currency = fields(req.json)?.currency;
    if (currency !== undefined) {
      if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency)) return controlError(400, "currency: must be a code such as USD");
      tx.currency = currency;
    }
    if (tx.channel === "ussd") {
      if (amount !== tx.amount) return controlError(400, "a USSD debit is the whole amount or nothing");
      if (ledger.statusOf(tx) !== "pending") return controlError(409, `transaction is ${ledger.statusOf(tx)}`);
      return settle(tx, "Payment successful");
    }
    const expired = ledger.statusOf(tx) === "abandoned";
    if (tx.status === "pending" && !expired && amount === tx.amount) return settle(tx, "Approved");
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
    outbox.send("charge.success", { event: "charge.success", data: ledger.transactionView(tx, mismatch ? tx.amount * 2 : tx.amount) });
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

  function inspect([reference = ""]: string[]): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    if (!tx) return controlError(404, `no transaction ${reference}`);
    const refunds = [...ledger.refunds.values()].filter((r) => r.transaction === tx).map((r) => ledger.refundView(r));
    return {
      status: 200,
      body: {
        transaction: ledger.transactionView(tx),
        ussdCode: tx.ussd?.code ?? null,
        account: tx.account ?? null,
        reversals: tx.reversals,
        refunds,
      },
    };
  }

  const api: DoubleRoute[] = [
    { method: "POST", path: /^\/charge$/, handle: authorized(charge) },
    { method: "GET", path: /^\/transaction\/verify\/([^/]+)$/, handle: authorized(verify) },
    { method: "POST", path: /^\/refund$/, handle: authorized(refund) },
    { method: "GET", path: /^\/refund$/, handle: authorized(listRefunds) },
    { method: "GET", path: /^\/refund\/([^/]+)$/, handle: authorized(fetchRefund) },
    { method: "GET", path: /^\/balance$/, handle: authorized(balance) },
  ];
  const control: DoubleRoute[] = [
    {
      method: "GET",
      path: /^\/_double$/,
      handle: () => ({
        status: 200,
        body: { provider: "paystack", secretKey, webhookUrl: outbox.url, transactions: [...ledger.transactions.keys()] },
      }),
    },
    { method: "GET", path: /^\/_double\/transactions\/([^/]+)$/, handle: inspect },
    { method: "POST", path: /^\/_double\/transactions\/([^/]+)\/pay$/, handle: pay },
    { method: "POST", path: /^\/_double\/transactions\/([^/]+)\/decline$/, handle: decline },
    { method: "POST", path: /^\/_double\/transactions\/([^/]+)\/expire$/, handle: expire },
  ];
  const double = createDoubleServer({
    api,
    control,
    faults,
    outbox,
    serverError: { status: 500, body: { status: false, message: "An error occurred, please try again" } },
    notFound: { status: 404, body: { status: false, message: "Route not found" } },
  });
  return {
    server: double.server,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      await double.close();
    },
  };
}
