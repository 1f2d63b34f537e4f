/**
 * The floor: the least a server can do for initiate and verify — node:http, one better-sqlite3 connection, the
 * same zod schema, one row written in an immediate transaction, the same answer. No token, rate limit, timeline
 * or logging: Owo ÷ floor is what those cost. Run by bench/run.ts as its own process on a copy of Owo's database.
 */
import Database from "better-sqlite3";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { ApiError } from "../server/api-error";
import { errorJson, successJson } from "../server/http/envelope";
import { randomDigits } from "../server/identifiers";
import { answerHead } from "../server/payments/initiate";
import { parseInitiateRequest } from "../server/payments/initiate-schema";
import { formatKobo } from "../server/payments/money";
import { STATUS_ANSWER } from "../server/payments/status";
import { paymentView } from "../server/payments/verify";
import { bankByCode, dialCode, sandboxHoldingBank } from "../server/providers/banks";
import { nubanFor } from "../server/providers/nuban";
import type { PaymentRow } from "../db/schema";
import { completeRow, INSERT_PAYMENT_SQL, SELECT_PAYMENT_SQL } from "./payment-rows";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`floor: ${name} is required`);
  return value;
};
const merchantId = env("FLOOR_MERCHANT_ID");
const merchantName = env("FLOOR_MERCHANT_NAME");
const publicUrl = env("OWO_PUBLIC_URL");

const sqlite = new Database(env("DATABASE_URL"));
sqlite.pragma("journal_mode = WAL");
sqlite.pragma("synchronous = NORMAL");
sqlite.pragma("foreign_keys = ON");
sqlite.pragma("busy_timeout = 5000");
const insert = sqlite.prepare(INSERT_PAYMENT_SQL);
const byReference = sqlite.prepare(`${SELECT_PAYMENT_SQL} where merchant_id = ? and mode = 'test' and payment_reference = ?`);
const insertOne = sqlite.transaction((row: Record<string, unknown>) => insert.run(row));

function parse(body: string) {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ApiError("S5", "Invalid/Missing parameters = body: the body is not valid JSON");
  }
  return parseInitiateRequest(json, { publicKey: true });
}

/** Issues numbers at random and lets the unique indexes refuse a taken one (Owo looks first; both then retry). */
function initiate(body: string): string {
  const req = parse(body);
  for (;;) {
    const now = Date.now();
    const linkingReference = `OWO${randomDigits(17)}`;
    const expiresAt = now + (req.paymentType === "USSD" ? 600 : 1800) * 1000;
    const tail = { amount: formatKobo(req.amount), expiresAt: new Date(expiresAt).toISOString(), checkoutUrl: `${publicUrl}/checkout/${linkingReference}` };
    let issued: Record<string, string>;
    let answer: Record<string, string>;
    if (req.paymentType === "USSD") {
      const bank = bankByCode(req.bankCode);
      const providerReference = randomDigits(8);
      const code = dialCode(bank?.ussdCode ?? "", providerReference);
      issued = { bankCode: req.bankCode, providerReference, dialCode: code };
      answer = { paymentReference: req.paymentReference, linkingReference, providerreference: providerReference, ussdDailCode: code, ...tail };
    } else {
      const accountNumber = nubanFor(sandboxHoldingBank.bankCode, randomDigits(9));
      const walletName = `OWO(${merchantName})`;
      issued = { accountNumber, accountBankName: sandboxHoldingBank.bankName, walletName };
      answer = { paymentReference: req.paymentReference, walletName, wallet: accountNumber, bankName: sandboxHoldingBank.bankName, accountNumber, linkingReference, ...tail };
    }
    const paymentsJson = JSON.stringify(answer);
    try {
      insertOne.immediate(
        completeRow({
          merchantId, mode: "test", paymentReference: req.paymentReference, linkingReference, paymentType: req.paymentType, status: "PENDING",
          amountKobo: req.amount, amountPaidKobo: 0, amountToRefundKobo: 0, currency: req.currency, country: req.country, fullName: req.fullName,
          mobileNumber: req.mobileNumber, email: req.email, callbackUrl: req.callbackUrl, redirectUrl: req.redirectUrl, ...issued,
          requestFingerprint: JSON.stringify(Object.values(req)), answerJson: paymentsJson, source: "rest", eventSequence: 0,
          createdAt: now, updatedAt: now, expiresAt,
        }),
      );
    } catch (e) {
      if ((e as { code?: string }).code !== "SQLITE_CONSTRAINT_UNIQUE") throw e;
      if (String(e).includes("payments.payment_reference")) throw new ApiError("S14", "paymentReference already used");
      continue;
    }
    const head = answerHead(req.paymentType);
    return `{"status":"SUCCESS","data":{"code":${JSON.stringify(head.code)},"message":${JSON.stringify(head.message)},"payments":${paymentsJson}}}`;
  }
}

function verify(reference: string): string {
  const p = byReference.get(merchantId, reference) as PaymentRow | undefined;
  if (!p) throw new ApiError("S404", `No payment with reference ${reference}`);
  return successJson({ ...STATUS_ANSWER[p.status], payments: paymentView(p), customers: { customerName: p.fullName, customerMobile: p.mobileNumber, customerEmail: p.email } });
}

function send(res: ServerResponse, status: number, json: string) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(json) });
  res.end(json);
}

function answer(req: IncomingMessage, res: ServerResponse, body: string) {
  const url = req.url ?? "/";
  try {
    if (req.method === "POST" && url === "/api/v2/payments/initiates") return send(res, 200, initiate(body));
    const verifying = /^\/api\/v[23]\/payments\/query\/([^/]+)$/.exec(url);
    if (req.method === "GET" && verifying?.[1]) return send(res, 200, verify(decodeURIComponent(verifying[1])));
    if (url === "/api/health") return send(res, 200, '{"status":"ok"}');
    throw new ApiError("S404", `No such endpoint: ${url}`);
  } catch (e) {
    const err = e instanceof ApiError ? e : new ApiError("S500", "Unexpected error");
    if (!(e instanceof ApiError)) console.error(e);
    send(res, err.httpStatus, errorJson(err));
  }
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => answer(req, res, Buffer.concat(chunks).toString("utf8")));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(env("PORT")), "127.0.0.1");
process.on("SIGTERM", () => {
  server.close(() => {
    sqlite.close();
    process.exit(0);
  });
  server.closeIdleConnections();
});
