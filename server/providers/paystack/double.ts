// The Paystack test double: Paystack's HTTP API as its docs describe it (pages cited in ./connector.ts), as strict
// as Paystack — a wrong key is 401 "Invalid key", amounts must be integer kobo, `ussd.type` one of its four, a
// reference is used once — plus control routes (/_double/…) where a test or the dashboard plays the customer and
// arms faults. What Paystack does by itself, it does too: a transfer of the wrong amount (or into an expired
// account) is sent back to the sender and reported as `bank.transfer.rejected`; refunds are processed and then
// announced by `refund.processed`. Its webhooks are signed with x-paystack-signature as Paystack signs them.
// Paystack sends no webhook for a declined charge: a decline is seen only by verify, and so here.
import { randomBytes } from "node:crypto";
import { openApiCheck, templatePattern } from "../test-double/openapi-check";
import { customerRoutes, integrationRoutes } from "../test-double/control-routes";
import { FaultPlan } from "../test-double/faults";
import { createDoubleServer } from "../test-double/double-server";
import type { DoubleAnswer, DoubleRequest, DoubleRoute, DoubleServer } from "../test-double/double-server";
import { WebhookOutbox } from "../test-double/webhook-outbox";
import { refundDesk } from "./double-refunds";
import { controlError, fields, koboOf, ok, refused } from "./double-answers";
import { customerDesk } from "./double-customer";
import { ACCOUNT_LIFETIME_MS, PaystackLedger, TEST_TRANSFER_BANK } from "./double-ledger";
import { refundView } from "./double-refund-records";
import { disputeDesk } from "./double-disputes";
import { listBanks } from "./double-banks";
import { settlementDesk } from "./double-settlements";
import { PAYSTACK_USSD_TYPES } from "./connector";
import { PAYSTACK_SIGNATURE_HEADER, paystackSignature } from "./signature";

export type PaystackDoubleOptions = { secretKey: string; webhookUrl?: string; refundDelayMs?: number; customerBearsFees?: boolean };

export function createPaystackDouble(o: PaystackDoubleOptions): DoubleServer {
  const secretKey = o.secretKey;
  const ledger = new PaystackLedger(secretKey.startsWith("sk_live_") ? "live" : "test");
  const faults = new FaultPlan();
  const outbox = new WebhookOutbox(faults, (body) => ({ [PAYSTACK_SIGNATURE_HEADER]: paystackSignature(body, secretKey) }), o.webhookUrl);
  const desk = refundDesk(ledger, outbox, faults, o.refundDelayMs ?? 50);
  const disputes = disputeDesk(ledger, outbox);
  const openApi = openApiCheck("paystack-openapi.yaml");
  const settlements = settlementDesk(ledger);
  const customer = customerDesk(ledger, outbox, faults);
  let customerBearsFees = o.customerBearsFees ?? false;

  /**
   * A route as Paystack documents it, its path written once, as the OpenAPI template: the secret key first, then the
   * body or the query held to Paystack's own OpenAPI document.
   */
  const route = (method: "GET" | "POST", template: string, fn: (params: string[], req: DoubleRequest) => DoubleAnswer): DoubleRoute => ({
    method,
    path: templatePattern(template),
    handle: (params, req) => {
      if (req.headers.authorization !== `Bearer ${secretKey}`) return refused(401, "Invalid key");
      const path = params.reduce((at, p) => at.replace(/\{[^}]+\}/, encodeURIComponent(p)), template);
      const wrong = method === "POST" ? openApi.check(method, path, req.json) : openApi.checkParameters(method, path, req.query);
      return wrong ? refused(400, `Invalid request: ${wrong}`, { type: "validation_error" }) : fn(params, req);
    },
  });

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
    const opened = { reference, amount, currency: "NGN" as const, email: b.email, metadata: b.metadata, customerBearsFees };
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

  function balance(): DoubleAnswer {
    let total = 0;
    for (const tx of ledger.transactions.values()) if (tx.status === "success" || tx.status === "reversed") total += tx.amount;
    for (const r of ledger.refunds.values()) if (r.status !== "failed") total -= r.amount;
    return ok("Balances retrieved", [{ currency: "NGN", balance: total }]);
  }

  function inspect([reference = ""]: string[]): DoubleAnswer {
    const tx = ledger.transactions.get(reference);
    if (!tx) return controlError(404, `no transaction ${reference}`);
    const refunds = [...ledger.refunds.values()]
      .filter((r) => r.transaction === tx)
      .map((r) => ({ ...refundView(r, ledger.domain), retriedTo: r.customerAccount ?? null }));
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

  /** The integration's settings: who bears Paystack's fee on new charges, refunds Paystack cannot return by itself,
   * refunds that stop at processing, and List Refunds' records as Paystack's own samples show them. */
  function integration(_p: string[], req: DoubleRequest): DoubleAnswer {
    const b = fields(req.json) ?? {};
    const notCount = (v: unknown) => v !== undefined && !(Number.isInteger(v) && Number(v) >= 0);
    if (b.customerBearsFees !== undefined && typeof b.customerBearsFees !== "boolean")
      return controlError(400, "customerBearsFees: true or false");
    if (notCount(b.refundsNeedingAttention) || notCount(b.refundsProcessing))
      return controlError(
        400,
        "refundsNeedingAttention, refundsProcessing: how many of the next refunds need an account, stop at processing",
      );
    if (b.refundsListedAsSample !== undefined && typeof b.refundsListedAsSample !== "boolean")
      return controlError(400, "refundsListedAsSample: true or false");
    if (typeof b.customerBearsFees === "boolean") customerBearsFees = b.customerBearsFees;
    if (typeof b.refundsListedAsSample === "boolean") desk.listedAsSample.on = b.refundsListedAsSample;
    if (typeof b.refundsNeedingAttention === "number") desk.needAttention.next = b.refundsNeedingAttention;
    if (typeof b.refundsProcessing === "number") desk.holdProcessing.next = b.refundsProcessing;
    const held = { refundsNeedingAttention: desk.needAttention.next, refundsProcessing: desk.holdProcessing.next };
    return { status: 200, body: { customerBearsFees, refundsListedAsSample: desk.listedAsSample.on, ...held } };
  }

  const api: DoubleRoute[] = [
    route("POST", "/charge", charge),
    route("GET", "/transaction/verify/{reference}", verify),
    route("POST", "/refund", desk.refund),
    route("GET", "/refund", desk.listRefunds),
    route("POST", "/refund/retry_with_customer_details/{id}", desk.retry),
    route("GET", "/refund/{id}", desk.fetchRefund),
    route("GET", "/bank", listBanks),
    route("GET", "/balance", balance),
    route("GET", "/dispute", disputes.list),
    route("GET", "/settlement", settlements.list),
    route("GET", "/settlement/{id}/transactions", settlements.transactions),
  ];
  const control: DoubleRoute[] = [
    ...customerRoutes(inspect, {
      pay: customer.pay,
      decline: customer.decline,
      expire: customer.expire,
      status: customer.showStatus,
      chargeback: disputes.chargeback,
    }),
    { method: "POST", path: /^\/_double\/refunds\/([^/]+)\/status$/, handle: desk.settleHeld },
    ...integrationRoutes(integration, settlements),
  ];
  return createDoubleServer({
    api,
    control,
    about: () => ({ provider: "paystack", secretKey, openApiDocument: openApi.source, transactions: [...ledger.transactions.keys()] }),
    faults,
    outbox,
    serverError: { status: 500, body: { status: false, message: "An error occurred, please try again" } },
    notFound: { status: 404, body: { status: false, message: "Route not found" } },
    stop: desk.close,
  });
}
