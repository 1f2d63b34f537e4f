// The SeerBit test double: SeerBit's HTTP API as its documents describe it (sources in ./connector.ts), at least as
// strict as SeerBit — every request is held to the schemas in ./requests.ts, written from SeerBit's pages; a call with no
// token is 403 "Header Token Missing", a stale one 401 "Invalid Authentication Token"; a reused reference is S18, an
// amount under ₦100 S7 (OpenAPI examples) — plus control routes (/_double/…) where a test plays the customer, revokes
// tokens and arms faults. Its webhooks go to the URL set on its "dashboard" (PUT /_double/webhook-url), each with an
// X-Expected-Ack-Reference that Owo must echo back within 5 s, or it retries (Webhook V2). Refunds need SeerBit's
// approval for the merchant (--refunds approved|not-approved). Any documented answer can be had on demand:
// POST /_double/answers {"path","sample"} answers the next API call under `path` with that sample of ./fixtures
// (SeerBit's own published answers, each naming its source), so every status and error shape SeerBit documents is
// one call away. Where ../shared/providers holds SeerBit's OpenAPI document, every request body is also held to
// the schema that document gives its operation (it types the token request; the initiate body only as an object).
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bankByCode, dialCode } from "../banks";
import { customerRoutes } from "../test-double/control-routes";
import { FaultPlan } from "../test-double/faults";
import { openApiCheck, templatePattern } from "../test-double/openapi-check";
import { createDoubleServer } from "../test-double/double-server";
import type { DoubleAnswer, DoubleRequest, DoubleRoute, DoubleServer } from "../test-double/double-server";
import { WebhookOutbox } from "../test-double/webhook-outbox";
import { parseAmount } from "../../money";
import { nairaNumber, SeerBitBooks, type FeeBearer } from "./double-books";
import { ACK_DEADLINE_MS, ACK_HEADER, ackAnswer, missing, refundRequest, tokenRequest, transferInitiate, ussdInitiate } from "./requests";

export type SeerBitDoubleOptions = {
  publicKey: string;
  secretKey: string;
  webhookUrl?: string;
  feeBearer?: FeeBearer;
  refundsApproved?: boolean;
  /** Delays before each retry of an unacknowledged webhook (SeerBit: "multiple retries at increasing intervals"). */
  retryDelaysMs?: number[];
};

// SeerBit's error shape, as its OpenAPI components.examples write it.
const error = (status: number, message: string, kind: string): DoubleAnswer => ({ status, body: { message, error: kind } });
const BAD_REQUEST = error(400, "Bad Request", "There has been a problem with reading or understanding the request.");
const ok = (data: Record<string, unknown>): DoubleAnswer => ({ status: 200, body: { status: "SUCCESS", data } });
/** A refusal in SeerBit's 200 envelope (InitiateAccountPaymentS7Response, …S12Response, InitiateCardTransactionsS18Response). */
const declined = (code: string, message: string): DoubleAnswer => ok({ code, payments: {}, message });
const controlError = (status: number, message: string): DoubleAnswer => ({ status, body: { error: message } });

export function createSeerBitDouble(o: SeerBitDoubleOptions): DoubleServer {
  const books = new SeerBitBooks(o.feeBearer ?? "merchant", o.secretKey.startsWith("SBTEST") ? "test" : "live");
  const faults = new FaultPlan();
  const outbox = new WebhookOutbox(faults, () => ({}), o.webhookUrl, {
    header: ACK_HEADER,
    deadlineMs: ACK_DEADLINE_MS,
    retryDelaysMs: o.retryDelaysMs ?? [200, 1_000, 3_000],
    acknowledges: (status, body, reference) => {
      if (status !== 200) return false;
      try {
        const a = ackAnswer.safeParse(JSON.parse(body));
        return a.success && a.data.ackReference === reference;
      } catch {
        return false;
      }
    },
  });
  let tokens = new Set<string>();

  function token(_p: string[], req: DoubleRequest): DoubleAnswer {
    const t = tokenRequest.safeParse(req.json);
    if (!t.success || t.data.key !== `${o.secretKey}.${o.publicKey}`) return BAD_REQUEST;
    const encryptedKey = randomBytes(72).toString("base64");
    tokens.add(encryptedKey);
    return ok({ code: "00", EncryptedSecKey: { encryptedKey }, message: "Successful" });
  }

  const authorized = (fn: (params: string[], req: DoubleRequest) => DoubleAnswer) => (params: string[], req: DoubleRequest) => {
    const h = req.headers.authorization;
    if (!h) return error(403, "Header Token Missing", "PERMISSION");
    if (!h.startsWith("Bearer ") || !tokens.has(h.slice(7))) return error(401, "Invalid Authentication Token", "INPUT");
    return fn(params, req);
  };

  function initiate(_p: string[], req: DoubleRequest): DoubleAnswer {
    const type = (req.json as { paymentType?: unknown } | undefined)?.paymentType;
    if (type === undefined || type === null) return error(400, "Payment Type cannot be null", "INPUT");
    const schema = type === "USSD" ? ussdInitiate : type === "TRANSFER" ? transferInitiate : null;
    if (!schema) return error(400, `This double serves paymentType USSD and TRANSFER, not ${String(type)}`, "INPUT");
    const b = schema.safeParse(req.json);
    if (!b.success) return error(400, `Invalid/Missing parameters = ${missing(b.error)}`, "INPUT");
    if (b.data.publicKey !== o.publicKey) return error(403, "Confirm Merchant Environment", "PERMISSION");
    const amount = parseAmount(b.data.amount) ?? 0;
    if (amount < 10_000)
      return declined("S7", "Cant process at this moment, please try again Invalid Amount = Amount cannot be less than 100.0");
    if (books.payments.has(b.data.paymentReference)) return declined("S18", "Transaction reference must be unique");
    const bank = "bankCode" in b.data ? bankByCode(b.data.bankCode) : undefined;
    if ("bankCode" in b.data && !bank?.ussdCode) return error(400, `Invalid/Missing parameters = bankCode`, "INPUT");
    const base = {
      reference: b.data.paymentReference,
      channel: b.data.paymentType,
      amount,
      currency: b.data.currency,
      fullName: b.data.fullName,
      email: b.data.email,
      mobileNumber: b.data.mobileNumber,
    };
    if (bank?.ussdCode) {
      const opened = books.open({ ...base, dialCode: null, account: null });
      opened.dialCode = dialCode(bank.ussdCode, opened.providerReference);
      // apis.seerbit.com "Pay with USSD": code and message null, the dial code and SeerBit's references.
      return ok({
        code: null,
        payments: {
          paymentReference: opened.reference,
          linkingReference: opened.linkingReference,
          providerreference: opened.providerReference,
          ussdDailCode: opened.dialCode,
        },
        message: null,
      });
    }
    const number = `99${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, "0")}`;
    const opened = books.open({ ...base, dialCode: null, account: { number, name: "SeerBit", bank: "Providus Bank" } });
    // OpenAPI InitiateTransferResponse: no linkingReference; amount a number, fee included where the customer bears it.
    return ok({
      code: "00",
      payments: {
        paymentReference: opened.reference,
        amount: nairaNumber(books.charged(opened)),
        walletName: "SeerBit",
        wallet: number,
        bankName: "Providus Bank",
        accountNumber: number,
      },
      message: "ACCOUNT OPENED SUCCESSFULLY",
    });
  }

  function query([reference = ""]: string[]): DoubleAnswer {
    const p = books.payments.get(reference);
    // OpenAPI CheckStatus 500 example 500Response4: SeerBit answers an unknown reference with a 500.
    if (!p) return error(500, "No transaction found", "PROCESSING");
    return { status: 200, body: books.queryView(p) };
  }

  function refund(_p: string[], req: DoubleRequest): DoubleAnswer {
    const b = refundRequest.safeParse(req.json);
    if (!b.success) return error(400, `Invalid/Missing parameters = ${missing(b.error)}`, "INPUT");
    if (b.data.publicKey !== o.publicKey) return error(403, "Confirm Merchant Environment", "PERMISSION");
    if (!o.refundsApproved) return error(403, "Refund is not enabled for this merchant", "PERMISSION");
    const p = books.payments.get(b.data.paymentReference);
    if (!p) return error(500, "Transaction with paymentReference does not exist", "PROCESSING");
    if (p.code !== "00") return declined("S12", "Transaction Failed");
    const amount = parseAmount(b.data.amount) ?? 0;
    if (amount <= 0 || amount > p.amount - p.refunded) return error(400, "Refund amount is more than is left to refund", "INPUT");
    if (faults.take(["refund-fails"])) return declined("S12", "Transaction Failed");
    p.refunded += amount;
    outbox.send("refund", books.refundNotice(p, amount, b.data.productDescription));
    // OpenAPI Refund201Response: code 00, APPROVED, the payment REFUNDED.
    return ok({ code: "00", payments: { paymentReference: p.reference, status: "REFUNDED" }, message: "APPROVED" });
  }

  /** The customer pays: a USSD debit or a transfer of what SeerBit charges (fee included where the customer bears it). */
  function pay([reference = ""]: string[]): DoubleAnswer {
    const p = books.payments.get(reference);
    if (!p) return controlError(404, `no payment ${reference}`);
    if (p.code !== "S20") return controlError(409, `payment is ${p.code}`);
    p.code = "00";
    p.paidAt = new Date();
    const mismatch = faults.take(["amount-mismatch"]) !== null;
    outbox.send("transaction", books.transactionNotice(p, mismatch ? books.charged(p) * 2 : books.charged(p)));
    return { status: 200, body: books.queryView(p) };
  }

  function decline([reference = ""]: string[]): DoubleAnswer {
    const p = books.payments.get(reference);
    if (!p) return controlError(404, `no payment ${reference}`);
    if (p.code !== "S20") return controlError(409, `payment is ${p.code}`);
    p.code = "S12";
    outbox.send("transaction", books.transactionNotice(p));
    return { status: 200, body: books.queryView(p) };
  }

  function inspect([reference = ""]: string[]): DoubleAnswer {
    const p = books.payments.get(reference);
    return p ? { status: 200, body: { payment: p, query: books.queryView(p) } } : controlError(404, `no payment ${reference}`);
  }

  /** Published samples armed for the next call under a path (POST /_double/answers). */
  const armed: { path: string; answer: DoubleAnswer }[] = [];
  const openApi = openApiCheck("seerbit-openapi.yml");
  /**
   * A route as SeerBit documents it, its path written once (a `{parameter}` is one segment): an armed sample first, then
   * the OpenAPI document's schema, then the route.
   */
  const route = (method: "GET" | "POST", template: string, fn: (params: string[], req: DoubleRequest) => DoubleAnswer): DoubleRoute => ({
    method,
    path: templatePattern(template),
    handle: (params, req) => {
      const i = armed.findIndex((a) => template.startsWith(a.path));
      if (i >= 0) return armed.splice(i, 1)[0]?.answer ?? fn(params, req);
      const wrong = method === "POST" ? openApi.check(method, template, req.json) : null;
      return wrong ? error(400, `Bad Request: ${wrong}`, "INPUT") : fn(params, req);
    },
  });
  function arm(_p: string[], req: DoubleRequest): DoubleAnswer {
    const { path, sample } = (req.json ?? {}) as { path?: unknown; sample?: unknown };
    const file = typeof sample === "string" && /^[a-z0-9-]+$/.test(sample) ? join(import.meta.dirname, "fixtures", `${sample}.json`) : "";
    if (typeof path !== "string" || !path.startsWith("/") || !existsSync(file))
      return controlError(400, "path: an API path such as /api/v2/payments/initiates; sample: the name of a file in seerbit/fixtures");
    const { status, body } = JSON.parse(readFileSync(file, "utf8")) as DoubleAnswer;
    armed.push({ path, answer: { status, body } });
    return { status: 200, body: { armed: armed.map((a) => a.path) } };
  }

  // The status query is v3, as doc.seerbit.com "Verify Payments" has it; the OpenAPI document names a v2 one with a sample
  // reference in its path (connector.ts).
  const api: DoubleRoute[] = [
    route("POST", "/api/v2/encrypt/keys", token),
    route("POST", "/api/v2/payments/initiates", authorized(initiate)),
    route("GET", "/api/v3/payments/query/{reference}", authorized(query)),
    route("POST", "/api/v2/payments/refunds", authorized(refund)),
  ];
  const control: DoubleRoute[] = [
    ...customerRoutes(inspect, { pay, decline }),
    { method: "POST", path: /^\/_double\/answers$/, handle: arm },
    { method: "POST", path: /^\/_double\/tokens\/revoke$/, handle: () => ((tokens = new Set()), { status: 200, body: { revoked: true } }) },
  ];
  return createDoubleServer({
    api,
    control,
    about: () => ({ provider: "seerbit", openApiDocument: openApi.source, payments: [...books.payments.keys()] }),
    faults,
    outbox,
    serverError: error(500, "Internal Server Error", "PROCESSING"),
    notFound: error(404, "Not Found", "The server can not find the requested resource "),
  });
}
