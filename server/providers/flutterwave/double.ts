// The Flutterwave test double: Flutterwave's v3 API as its docs describe it (pages cited in ./connector.ts), as
// strict as Flutterwave — a Bearer secret key or 401, NGN only, amounts with at most 2 decimals, a tx_ref used once,
// USSD only for the banks its guide lists — plus control routes (/_double/…) where a test or a person plays the
// customer and arms faults (../test-double/faults.ts). What Flutterwave does by itself, it does too: a dynamic
// account takes one transfer and expires after use or after its lifetime (a later transfer goes back to the sender);
// refunds start pending and are paid out later (`completed`, or `successful` when a test asks). Webhooks carry `verif-hash`: the merchant's secret hash, as is (or `flutterwave-signature` when a test asks).
import { createHmac } from "node:crypto";
import { formatKobo } from "../../money";
import { createDoubleServer } from "../test-double/double-server";
import type { DoubleAnswer, DoubleRequest, DoubleRoute, DoubleServer } from "../test-double/double-server";
import { customerRoutes, integrationRoutes } from "../test-double/control-routes";
import { FaultPlan } from "../test-double/faults";
import { WebhookOutbox } from "../test-double/webhook-outbox";
import { amountOf, controlError, fields, ok, refused } from "./double-answers";
import { Books, REFUND_PAID_WORDS, type Charge } from "./double-books";
import { flutterwaveRefundDesk } from "./double-refunds";
import { flutterwaveSettlementDesk } from "./double-settlements";
import { USSD_BANK_CODES } from "./wire";

export type FlutterwaveDoubleOptions = { secretKey: string; secretHash: string; webhookUrl?: string; refundDelayMs?: number };

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function createFlutterwaveDouble(o: FlutterwaveDoubleOptions): DoubleServer {
  const books = new Books();
  const faults = new FaultPlan();
  let webhookSignature: "verif-hash" | "flutterwave-signature" = "verif-hash";
  // verif-hash is the secret hash as is; flutterwave-signature the base64 HMAC-SHA256 of the body keyed with it.
  const signed = (body: string): Record<string, string> =>
    webhookSignature === "verif-hash"
      ? { "verif-hash": o.secretHash }
      : { "flutterwave-signature": createHmac("sha256", o.secretHash).update(body).digest("base64") };
  const outbox = new WebhookOutbox(faults, signed, o.webhookUrl);
  const refundDesk = flutterwaveRefundDesk(books, faults, o.refundDelayMs ?? 50);
  const settlements = flutterwaveSettlementDesk(books, o.secretKey.startsWith("FLWSECK_TEST"));

  const authorized = (fn: (params: string[], req: DoubleRequest) => DoubleAnswer) => (params: string[], req: DoubleRequest) =>
    req.headers.authorization === `Bearer ${o.secretKey}` ? fn(params, req) : refused(401, "Invalid authorization key");

  function charge(_p: string[], req: DoubleRequest): DoubleAnswer {
    const type = req.query.get("type");
    const b = fields(req.json);
    if (!b) return refused(400, "Invalid JSON payload");
    if (type !== "ussd" && type !== "bank_transfer") return refused(400, "Invalid charge type");
    if (typeof b.tx_ref !== "string" || b.tx_ref === "") return refused(400, "tx_ref is required");
    if (books.charges.has(b.tx_ref)) return refused(400, "Duplicate transaction reference");
    const amountKobo = amountOf(b.amount);
    if (amountKobo === null) return refused(400, "Invalid amount: a positive amount with at most 2 decimals is required");
    if (b.currency !== "NGN") return refused(400, `${type === "ussd" ? "USSD" : "Bank transfer"} charges are only supported for NGN`);
    if (typeof b.email !== "string" || !EMAIL.test(b.email)) return refused(400, "A valid email is required");
    const customer = {
      email: b.email,
      name: typeof b.fullname === "string" ? b.fullname : "Anonymous customer",
      phone: typeof b.phone_number === "string" ? b.phone_number : null,
    };
    const opened = {
      txRef: b.tx_ref,
      type,
      amountKobo,
      customer,
      narration: typeof b.narration === "string" ? b.narration : customer.name,
    } as const;
    if (type === "ussd") {
      if (typeof b.account_bank !== "string" || !USSD_BANK_CODES.has(b.account_bank))
        return refused(400, "USSD is not supported for this account_bank");
      const c = books.open(opened);
      return ok(
        "Charge initiated",
        { ...books.transaction(c), payment_code: c.paymentCode },
        { meta: { authorization: { mode: "ussd", note: `*566*002*${c.paymentCode}#` } } },
      );
    }
    const expires = b.expires;
    if (expires !== undefined && (typeof expires !== "number" || !Number.isSafeInteger(expires) || expires < 1))
      return refused(400, "expires must be a whole number of seconds");
    const c = books.open(opened, expires);
    const account = c.account!;
    // The docs' sample answers this charge with no `data`: everything is in meta.authorization.
    return {
      status: 200,
      body: {
        status: "success",
        message: "Charge initiated",
        meta: {
          authorization: {
            transfer_reference: c.flwRef,
            transfer_account: account.number,
            transfer_bank: account.bank,
            account_expiration: account.expiresAt,
            transfer_note: `Please make a bank transfer to ${opened.narration}`,
            transfer_amount: formatKobo(amountKobo),
            mode: "banktransfer",
          },
        },
      },
    };
  }

  function verifyByReference(_p: string[], req: DoubleRequest): DoubleAnswer {
    const c = books.charges.get(req.query.get("tx_ref") ?? "");
    return c ? ok("Transaction fetched successfully", books.transaction(c)) : refused(400, "No transaction was found for this tx_ref");
  }

  function verifyById([id = ""]: string[]): DoubleAnswer {
    const c = books.byId(id);
    return c ? ok("Transaction fetched successfully", books.transaction(c)) : refused(400, "No transaction was found for this id");
  }

  function balances(): DoubleAnswer {
    let total = 0;
    for (const c of books.charges.values()) if (c.status === "successful") total += c.paidKobo;
    for (const r of books.refunds.values()) if (r.status !== "failed") total -= r.amountKobo;
    return ok("Wallet balances fetched", [
      { currency: "NGN", available_balance: Number(formatKobo(total)), ledger_balance: Number(formatKobo(total)) },
    ]);
  }

  /** charge.completed, with the amount bent when an amount-mismatch fault is armed. */
  function notify(c: Charge): void {
    const mismatch = faults.take(["amount-mismatch"]) !== null;
    outbox.send("charge.completed", books.webhook(c, mismatch ? c.paidKobo + 100000 : undefined));
  }

  /** The customer pays: a USSD debit is the exact amount; a transfer is whatever the customer sends (kobo). */
  function pay([txRef = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const c = books.charges.get(txRef);
    if (!c) return controlError(404, `no charge ${txRef}`);
    const asked = fields(req.json)?.amount;
    const kobo = asked === undefined ? c.amountKobo : typeof asked === "number" && Number.isSafeInteger(asked) && asked > 0 ? asked : null;
    if (kobo === null) return controlError(400, "amount: must be a positive integer of kobo");
    if (c.type === "ussd" && kobo !== c.amountKobo) return controlError(400, "a USSD debit is the whole amount or nothing");
    const refusedWhy = books.pay(c, kobo);
    if (refusedWhy) return controlError(409, refusedWhy);
    notify(c);
    return { status: 200, body: { outcome: "paid", transaction: books.transaction(c) } };
  }

  /** The customer's bank declines the debit (or the charge fails): charge.completed with status failed. */
  function decline([txRef = ""]: string[]): DoubleAnswer {
    const c = books.charges.get(txRef);
    if (!c) return controlError(404, `no charge ${txRef}`);
    const refusedWhy = books.decline(c);
    if (refusedWhy) return controlError(409, refusedWhy);
    outbox.send("charge.completed", books.webhook(c));
    return { status: 200, body: { outcome: "declined", transaction: books.transaction(c) } };
  }

  /** Ends a dynamic account's lifetime now instead of waiting it out: a later transfer goes back to the sender. The
   * docs give no status for a lapsed charge, so verify keeps answering pending; USSD codes have no documented lifetime. */
  function expire([txRef = ""]: string[]): DoubleAnswer {
    const c = books.charges.get(txRef);
    if (!c) return controlError(404, `no charge ${txRef}`);
    if (!c.account) return controlError(400, "only a bank transfer charge's account expires");
    if (c.status !== "pending") return controlError(409, `charge is ${c.status}`);
    c.account.expiresAt = Date.now() - 1;
    return { status: 200, body: { outcome: "expired", transaction: books.transaction(c), account: c.account } };
  }

  /** Control: POST /_double/integration {"refundPaidWord"?: REFUND_PAID_WORDS, "webhookSignature"?: "verif-hash"|
   * "flutterwave-signature", "feeBearer"?: "merchant"|"customer"}: the word refunds paid out from now on carry, the
   * header webhooks are proven with, and who pays the fee of payments made from now on. */
  function integration(_p: string[], req: DoubleRequest): DoubleAnswer {
    const b = fields(req.json) ?? {};
    if (b.feeBearer !== undefined && b.feeBearer !== "merchant" && b.feeBearer !== "customer")
      return controlError(400, "feeBearer: merchant or customer");
    const paidWord = REFUND_PAID_WORDS.find((w) => w === b.refundPaidWord);
    if (b.refundPaidWord !== undefined && paidWord === undefined)
      return controlError(400, `refundPaidWord: ${REFUND_PAID_WORDS.join(", ")}`);
    if (b.webhookSignature !== undefined && b.webhookSignature !== "verif-hash" && b.webhookSignature !== "flutterwave-signature")
      return controlError(400, "webhookSignature: verif-hash or flutterwave-signature");
    refundDesk.paidWord = paidWord ?? refundDesk.paidWord;
    webhookSignature = b.webhookSignature ?? webhookSignature;
    books.feeBearer = b.feeBearer ?? books.feeBearer;
    return { status: 200, body: { refundPaidWord: refundDesk.paidWord, webhookSignature, feeBearer: books.feeBearer } };
  }

  function inspect([txRef = ""]: string[]): DoubleAnswer {
    const c = books.charges.get(txRef);
    if (!c) return controlError(404, `no charge ${txRef}`);
    const refunds = [...books.refunds.values()].filter((r) => r.charge === c).map((r) => books.refundView(r));
    return {
      status: 200,
      body: {
        transaction: books.transaction(c),
        account: c.account ?? null,
        dialCode: c.paymentCode ? `*566*002*${c.paymentCode}#` : null,
        refunds,
      },
    };
  }

  const api: DoubleRoute[] = [
    { method: "POST", path: /^\/v3\/charges$/, handle: authorized(charge) },
    { method: "GET", path: /^\/v3\/transactions\/verify_by_reference$/, handle: authorized(verifyByReference) },
    { method: "GET", path: /^\/v3\/transactions\/([^/]+)\/verify$/, handle: authorized(verifyById) },
    { method: "POST", path: /^\/v3\/transactions\/([^/]+)\/refund$/, handle: authorized(refundDesk.refund) },
    { method: "GET", path: /^\/v3\/refunds$/, handle: authorized(refundDesk.listRefunds) },
    { method: "GET", path: /^\/v3\/refunds\/([^/]+)$/, handle: authorized(refundDesk.fetchRefund) },
    { method: "GET", path: /^\/v3\/balances$/, handle: authorized(balances) },
    { method: "GET", path: /^\/v3\/settlements$/, handle: authorized(settlements.list) },
    { method: "GET", path: /^\/v3\/settlements\/([^/]+)$/, handle: authorized(settlements.fetch) },
  ];
  const control: DoubleRoute[] = [...customerRoutes(inspect, { pay, decline, expire }), ...integrationRoutes(integration, settlements)];
  return createDoubleServer({
    api,
    control,
    about: () => ({ provider: "flutterwave", secretKey: o.secretKey, secretHash: o.secretHash, transactions: [...books.charges.keys()] }),
    faults,
    outbox,
    serverError: { status: 503, body: { status: "error", message: "Service Unavailable", data: null } },
    notFound: { status: 404, body: { status: "error", message: "Route not found", data: null } },
    stop: refundDesk.stop,
  });
}
