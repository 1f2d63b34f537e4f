// SeerBit as a bank-side provider, spoken as SeerBit publishes itself (API.md "Live mode"). Sources:
// - seerbit/openapi specs/external-api.yml at 85820195f2303ac8dec381bc041dc773044ccaba (server /api/v2): the token
//   (GenerateEncryptedSecretKey), initiate (InitiatePayment, its body typed only as an object, and its
//   S7/S12/S18 answers), the query (CheckStatus), the error shapes ({message, error}); read from ../shared/providers.
// - https://apis.seerbit.com/authentication (token answer: EncryptedSecKey.encryptedKey, no expiry),
//   https://apis.seerbit.com/api-endpoints/pay-with-ussd (USSD request fields and answer),
//   https://doc.seerbit.com/online-payment/after-payment/verify-payment (GET /api/v3/payments/query/{ref}, with
//   paymentBreakdown), https://doc.seerbit.com/webhook-1/structure-of-the-event-notification (notificationItems),
//   https://doc.seerbit.com/online-payment/after-payment/webhook-event-v2 (the ackReference handshake).
// - github:seerbit/seerbit-nodejs at dc8f11ef63c7b3419e67038d4db194324aaa66b6 (src/client.ts: live root
//   https://seerbitapi.com/api/v2/; services: a Bearer token on every call, query at payments/query/{ref}).
// Disagreements, noted as asked: the OpenAPI example spells the token key EncrytedSecKey (both are read); the
// OpenAPI query lives under /api/v2, the docs' under /api/v3 (Owo asks v3, as the docs say).
// Notices are unsigned: readNotice only parses them, and the core confirms each by query() before money moves.
// Refunds: POST /api/v2/payments/refunds, done only on data.code "00"; SeerBit has no refund status to ask after.
import { createHash } from "node:crypto";
import { formatKobo } from "../../money";
import { ProviderUnavailable, type Connector, type IssueRequest, type ProviderAccount } from "../connector";
import { accountUrl, callProvider, callWithBearer, type AccountCall } from "../provider-call";
import { readNoticeBody } from "./notices";
import { readInitiateAnswer, readQueryAnswer, readRefundAnswer, readTokenAnswer } from "./wire";
import { ACK_HEADER, ackOf } from "./requests";

/** SeerBit's token carries no expiry: it is kept until SeerBit answers 401 to it, then renewed once. */
const tokens = new Map<string, string>();

function credential(account: ProviderAccount, name: "publicKey" | "secretKey"): string {
  const v = account.credentials[name];
  if (!v) throw new ProviderUnavailable("seerbit", `${account.id}: no ${name}`);
  return v;
}

/** Tokens are cached per account and key pair: a changed key never reuses the old key's token. */
function tokenKey(account: ProviderAccount): string {
  return `${account.id}:${createHash("sha256")
    .update(`${credential(account, "secretKey")}.${credential(account, "publicKey")}`)
    .digest("hex")}`;
}

async function freshToken(account: ProviderAccount, signal: AbortSignal): Promise<string> {
  const body = { key: `${credential(account, "secretKey")}.${credential(account, "publicKey")}` };
  const answer = await callProvider("seerbit", accountUrl(account, "/api/v2/encrypt/keys"), { method: "POST", headers: {}, body }, signal);
  const token = readTokenAnswer(answer.status, answer.body);
  tokens.set(tokenKey(account), token);
  return token;
}

/** One authenticated call; a 401 (the token is no longer good at SeerBit) gets one fresh token and one retry. */
const call: AccountCall = async (account, method, path, signal, body) => {
  let token = tokens.get(tokenKey(account)) ?? (await freshToken(account, signal));
  for (let attempt = 0; ; attempt++) {
    const answer = await callWithBearer("seerbit", account, token, { method, path, body }, signal);
    if (answer.status !== 401 || attempt > 0) return answer;
    token = await freshToken(account, signal);
  }
};

/** The fields apis.seerbit.com's "Pay with USSD" marks required (TRANSFER takes the same, without bankCode). */
function initiateBody(account: ProviderAccount, req: IssueRequest): Record<string, unknown> {
  // callbackUrl is required by SeerBit's USSD page; its notices go to the webhook URL set on SeerBit's dashboard.
  if (!req.noticeUrl) throw new Error("SeerBit needs the provider account's notice URL with every payment");
  return {
    publicKey: credential(account, "publicKey"),
    amount: formatKobo(req.amountKobo),
    fullName: req.customer.fullName,
    mobileNumber: req.customer.mobileNumber,
    email: req.customer.email,
    currency: req.currency,
    country: "NG",
    paymentReference: req.reference,
    callbackUrl: req.noticeUrl,
    // The customer never visits SeerBit's pages for USSD or TRANSFER; its API still wants somewhere to send them.
    redirectUrl: new URL("/", req.noticeUrl).toString(),
    paymentType: req.channel,
    ...(req.channel === "USSD" ? { bankCode: req.bank?.bankCode } : {}),
  };
}

export const seerbit: Connector = {
  name: "seerbit",
  unsignedNotices: true,
  refundsNeedApproval: true,

  serves(channel, bank) {
    return channel === "TRANSFER" || (bank !== undefined && bank.ussdCode !== null);
  },

  async issue(account, req, signal) {
    if (!Number.isSafeInteger(req.amountKobo) || req.amountKobo <= 0) throw new Error("amountKobo must be a positive integer");
    const answer = await call(account, "POST", "/api/v2/payments/initiates", signal, initiateBody(account, req));
    return readInitiateAnswer(req.channel, req.reference, answer.status, answer.body);
  },

  /** Unsigned: parses only. A reading from here is a hint to query(), never a credit by itself. */
  readNotice(_account, rawBody) {
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString("utf8"));
    } catch {
      return readNoticeBody(undefined);
    }
    return readNoticeBody(body);
  },

  acknowledgeNotice(headers) {
    const h = headers[ACK_HEADER];
    return ackOf(Array.isArray(h) ? h[0] : h);
  },

  async query(account, reference, signal) {
    const answer = await call(account, "GET", `/api/v3/payments/query/${encodeURIComponent(reference)}`, signal);
    return readQueryAnswer(answer.status, answer.body);
  },

  async refund(account, req, signal) {
    const answer = await call(account, "POST", "/api/v2/payments/refunds", signal, {
      publicKey: credential(account, "publicKey"),
      amount: formatKobo(req.amountKobo),
      paymentReference: req.reference,
      productDescription: req.reason,
      currency: "NGN",
      country: "NG",
    });
    return readRefundAnswer(req.refundReference, answer.status, answer.body);
  },

  async testConnection(account, signal) {
    await freshToken(account, signal);
  },
};
