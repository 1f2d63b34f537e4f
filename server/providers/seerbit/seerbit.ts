// SeerBit as a bank-side provider, through the v2 API that Owo itself speaks (docs/API.md, which is
// written to SeerBit's v2: "Access token", "Initiate", "Verify", "Callbacks"):
//   POST /api/v2/encrypt/keys {"key":"<secret>.<public>"}   → a bearer token (kept until shortly before it expires)
//   POST /api/v2/payments/initiates                          → a dial code or an account; amount as a naira string
//   GET  /api/v3/payments/query/{paymentReference}           → how the payment stands
// SeerBit's notices (the `notificationItems` POST to the payment's callbackUrl) carry no signature a merchant can
// check, so readNotice only parses them: THE CORE MUST CONFIRM EVERY SEERBIT READING BY query() BEFORE IT MOVES
// MONEY. Because Owo speaks this API, another Owo process is this connector's test double (a chain of two Owos).
// Refunds: POST /api/v2/payments/{ref}/refunds (API.md "Refunds") with Owo's refundReference, so a resent refund is
// the same refund; GET /api/v2/payments/{ref}/refunds/{refundReference} tells how one stands. A refund's id here is
// "{ref}/{refundReference}" (the second Owo knows a refund only under its payment), and its unsigned
// refund.processed / refund.failed notices are only a prompt to ask that GET: they never settle a refund themselves.
import { createHash } from "node:crypto";
import { clock } from "../../clock";
import { formatKobo } from "../../payments/money";
import type { Bank } from "../banks";
import { ProviderUnavailable, type Channel, type Connector, type IssueRequest, type ProviderAccount, type RefundState } from "../connector";
import { callProvider, type ProviderAnswer } from "../provider-call";
import {
  readInitiateAnswer,
  readNoticeBody,
  readRefundAnswer,
  readRefundStatus,
  readTokenAnswer,
  readVerifyAnswer,
  seerbitRefundId,
} from "./records";

/** A token is dropped this long before SeerBit says it expires, so a call never carries one that dies on the way. */
const TOKEN_MARGIN_MS = 60_000;
const tokens = new Map<string, { token: string; expiresAt: number }>();

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

function url(account: ProviderAccount, path: string): string {
  return account.baseUrl.replace(/\/+$/, "") + path;
}

async function freshToken(account: ProviderAccount, signal: AbortSignal): Promise<string> {
  const answer = await callProvider(
    "seerbit",
    url(account, "/api/v2/encrypt/keys"),
    {
      method: "POST",
      headers: {},
      body: { key: `${credential(account, "secretKey")}.${credential(account, "publicKey")}` },
    },
    signal,
  );
  const t = readTokenAnswer(answer.status, answer.body);
  tokens.set(tokenKey(account), t);
  return t.token;
}

/** One authenticated call; a 401 (token expired or revoked early at SeerBit) gets one fresh token and one retry. */
async function call(
  account: ProviderAccount,
  method: "GET" | "POST",
  path: string,
  signal: AbortSignal,
  body?: unknown,
): Promise<ProviderAnswer> {
  const cached = tokens.get(tokenKey(account));
  let token = cached && cached.expiresAt - TOKEN_MARGIN_MS > clock.now() ? cached.token : await freshToken(account, signal);
  for (let attempt = 0; ; attempt++) {
    const answer = await callProvider(
      "seerbit",
      url(account, path),
      { method, headers: { authorization: `Bearer ${token}` }, body },
      signal,
    );
    if (answer.status !== 401 || attempt > 0) return answer;
    token = await freshToken(account, signal);
  }
}

function initiateBody(account: ProviderAccount, req: IssueRequest): Record<string, unknown> {
  // The notice URL is where SeerBit calls back; a payment issued without it would be heard of only by requery.
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

/** The refund "{ref}/{refundReference}" as the second Owo records it; null when it has none. */
async function refundAt(account: ProviderAccount, refundId: string, signal: AbortSignal): Promise<RefundState | null> {
  const [reference = "", refundReference = ""] = refundId.split("/");
  const answer = await call(
    account,
    "GET",
    `/api/v2/payments/${encodeURIComponent(reference)}/refunds/${encodeURIComponent(refundReference)}`,
    signal,
  );
  return readRefundStatus(refundId, answer.status, answer.body);
}

export const seerbit: Connector = {
  name: "seerbit",
  unsignedNotices: true,

  serves(channel: Channel, bank?: Bank): boolean {
    return channel === "TRANSFER" || (bank !== undefined && bank.ussdCode !== null);
  },

  async issue(account, req, signal) {
    if (!Number.isSafeInteger(req.amountKobo) || req.amountKobo <= 0) throw new Error("amountKobo must be a positive integer");
    const answer = await call(account, "POST", "/api/v2/payments/initiates", signal, initiateBody(account, req));
    return readInitiateAnswer(req.channel, answer.status, answer.body);
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

  async query(account, reference, signal) {
    const answer = await call(account, "GET", `/api/v3/payments/query/${encodeURIComponent(reference)}`, signal);
    return readVerifyAnswer(answer.status, answer.body);
  },

  async refund(account, req, signal) {
    const answer = await call(account, "POST", `/api/v2/payments/${encodeURIComponent(req.reference)}/refunds`, signal, {
      amount: formatKobo(req.amountKobo),
      reason: req.reason,
      refundReference: req.refundReference,
    });
    return { ...readRefundAnswer(answer.status, answer.body), refundId: seerbitRefundId(req.reference, req.refundReference) };
  },

  async queryRefund(account, refundId, signal) {
    const state = await refundAt(account, refundId, signal);
    if (!state) throw new ProviderUnavailable("seerbit", `GET /api/v2/payments/{ref}/refunds/{refundReference}: no refund ${refundId}`);
    return state;
  },

  // Sending again would be safe (the refundReference makes it the same refund), but asking first costs nothing.
  async findRefund(account, lookup, signal) {
    return refundAt(account, seerbitRefundId(lookup.reference, lookup.refundReference), signal);
  },

  async testConnection(account, signal) {
    await freshToken(account, signal);
  },
};
