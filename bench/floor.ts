/**
 * The floor: the least a server can do for initiate and verify — node:http, the same zod schema, one row written,
 * the same answer, on either dialect (bench/floor-store.ts). No token, rate limit, timeline or logging: Owo ÷ floor
 * is what those cost. Run by bench/run.ts as its own process(es) on a copy of Owo's database.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { ApiError } from "../server/api-error";
import { errorJson, successJson } from "../server/http/envelope";
import { randomDigits } from "../server/identifiers";
import { answerHead } from "../server/payments/initiate-answer";
import { parseInitiateRequest } from "../server/payments/initiate-schema";
import { STATUS_ANSWER } from "../server/payments/status";
import { paymentView } from "../server/payments/verify";
import { bankByCode, sandboxHoldingBank } from "../server/providers/banks";
import { nubanFor } from "../server/providers/nuban";
import { openFloorStore } from "./floor-store";
import { completeRow, sandboxIssue } from "./payment-rows";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`floor: ${name} is required`);
  return value;
};
const merchantId = env("FLOOR_MERCHANT_ID");
const merchantName = env("FLOOR_MERCHANT_NAME");
const publicUrl = env("OWO_PUBLIC_URL");

const store = openFloorStore(env("DATABASE_URL"));

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
async function initiate(body: string): Promise<string> {
  const req = parse(body);
  for (;;) {
    const now = Date.now();
    const linkingReference = `OWO${randomDigits(17)}`;
    const expiresAt = now + (req.paymentType === "USSD" ? 600 : 1800) * 1000;
    const { issued, answer } = sandboxIssue(
      { paymentReference: req.paymentReference, linkingReference, amountKobo: req.amount, expiresAt, publicUrl },
      req.paymentType === "USSD"
        ? { type: "USSD", bankCode: req.bankCode, ussdCode: bankByCode(req.bankCode)?.ussdCode ?? "", providerReference: randomDigits(8) }
        : { type: "TRANSFER", accountNumber: nubanFor(sandboxHoldingBank.bankCode, randomDigits(9)), merchantName },
    );
    const paymentsJson = JSON.stringify(answer);
    const inserted = await store.insert(
      completeRow({
        merchantId,
        mode: "test",
        paymentReference: req.paymentReference,
        linkingReference,
        paymentType: req.paymentType,
        status: "PENDING",
        amountKobo: req.amount,
        amountPaidKobo: 0,
        amountToRefundKobo: 0,
        currency: req.currency,
        country: req.country,
        fullName: req.fullName,
        mobileNumber: req.mobileNumber,
        email: req.email,
        callbackUrl: req.callbackUrl ?? "",
        redirectUrl: req.redirectUrl ?? "",
        ...issued,
        requestFingerprint: JSON.stringify(Object.values(req)),
        answerJson: paymentsJson,
        source: "rest",
        eventSequence: 0,
        createdAt: now,
        updatedAt: now,
        expiresAt,
      }),
    );
    if (inserted === "reference taken") throw new ApiError("S14", "paymentReference already used");
    if (inserted === "number taken") continue;
    const head = answerHead(req.paymentType);
    return `{"status":"SUCCESS","data":{"code":${JSON.stringify(head.code)},"message":${JSON.stringify(head.message)},"payments":${paymentsJson}}}`;
  }
}

async function verify(reference: string): Promise<string> {
  const p = await store.byReference(merchantId, reference);
  if (!p) throw new ApiError("S404", `No payment with reference ${reference}`);
  return successJson({
    ...STATUS_ANSWER[p.status],
    payments: paymentView(p),
    customers: { customerName: p.fullName, customerMobile: p.mobileNumber, customerEmail: p.email },
  });
}

function send(res: ServerResponse, status: number, json: string) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(json) });
  res.end(json);
}

async function answer(req: IncomingMessage, res: ServerResponse, body: string) {
  const url = req.url ?? "/";
  try {
    if (req.method === "POST" && url === "/api/v2/payments/initiates") return send(res, 200, await initiate(body));
    const verifying = /^\/api\/v[23]\/payments\/query\/([^/]+)$/.exec(url);
    if (req.method === "GET" && verifying?.[1]) return send(res, 200, await verify(decodeURIComponent(verifying[1])));
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
  req.on("end", () => void answer(req, res, Buffer.concat(chunks).toString("utf8")));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(env("PORT")), "127.0.0.1");
process.on("SIGTERM", () => {
  server.close(() => {
    void store.close().finally(() => process.exit(0));
  });
  server.closeIdleConnections();
});
