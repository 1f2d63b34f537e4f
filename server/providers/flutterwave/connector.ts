// Flutterwave v3 as an Owo provider: dial codes (USSD charge), temporary accounts (bank transfer charge), webhooks
// checked by `verif-hash`, requery by tx_ref, refunds. Written from Flutterwave's published docs:
//   https://developer.flutterwave.com/docs/ussd                       (USSD charge: account_bank, the banks served, meta.authorization.note)
//   https://developer.flutterwave.com/docs/bank-transfer-1            (bank transfer charge: meta.authorization transfer_* fields, expiry)
//   https://developer.flutterwave.com/docs/webhooks                   (verif-hash = the secret hash set on the dashboard, or
//                                                                     flutterwave-signature = base64 HMAC-SHA256 of the raw body
//                                                                     keyed with that secret hash; charge.completed)
//   https://developer.flutterwave.com/docs/transaction-verification   (verify before giving value: status, amount, currency)
//   https://developer.flutterwave.com/v3.0.0/reference/transaction-refund and /docs/payment-operations/refunds (refunds)
//   https://developer.flutterwave.com/v3.0.0/reference/get-all-refunds  (GET /v3/refunds: from, to, page, status, flw_ref, id)
//   https://developer.flutterwave.com/reference/endpoints/settlements  (GET /v3/settlements, /v3/settlements/{id}: ./settlements.ts)
//   https://github.com/Flutterwave/Flutterwave-node-v3 (the official Node SDK: request shapes of Charge.ussd,
//   Charge.bank_transfer and Transaction.refund, the Bearer secret key; its documentation's sample responses)
// Amounts go to Flutterwave as two-decimal naira strings made from integer kobo; providerreference is the flw_ref.
import { clock } from "../../clock";
import { formatKobo } from "../../money";
import { callWithBearer, type AccountCall, type ProviderAnswer } from "../provider-call";
import {
  NoticeRejected,
  ProviderRefused,
  ProviderUnavailable,
  type Connector,
  type IssueRequest,
  type ProviderAccount,
} from "../connector";
import { readFlutterwaveSettlements } from "./settlements";
import { readWebhook } from "./notices";
import { flutterwaveNoticeProven } from "./signature";
import {
  readRefund,
  readRefundList,
  readTransaction,
  readTransactionId,
  readTransferCharge,
  readUssdCharge,
  UnusableAnswer,
  USSD_BANK_CODES,
} from "./wire";

function secretKey(account: ProviderAccount): string {
  const key = account.credentials.secretKey;
  if (!key) throw new ProviderUnavailable("flutterwave", `${account.id}: no secret key`);
  return key;
}

/** One call to Flutterwave's API (../provider-call.ts turns timeouts, refused connections, 5xx and non-JSON into
 * ProviderUnavailable). A refused secret key is Flutterwave saying no: ProviderRefused. */
const call: AccountCall = async (account, method, path, signal, body) => {
  const answer = await callWithBearer("flutterwave", account, secretKey(account), { method, path, body }, signal);
  if (answer.status === 401) throw new ProviderRefused("flutterwave", `${method} ${path.split("?")[0] ?? path}: secret key refused (401)`);
  return answer;
};

/** Flutterwave's own "no": its error envelope (`{"status":"error","message":…}`) with a 4xx. */
function refusedIn(answer: ProviderAnswer): string | undefined {
  const b = answer.body as { status?: unknown; message?: unknown } | null;
  if (answer.status < 400 || answer.status >= 500 || b?.status !== "error") return undefined;
  return `refused (${answer.status}): ${typeof b.message === "string" ? b.message : "no message"}`;
}

/** Reads an answer; one Owo cannot use is ProviderRefused when Flutterwave said no in its own words (final), else
 * ProviderUnavailable (never half-believed). */
function readWith<T>(what: string, answer: ProviderAnswer, read: (answer: ProviderAnswer) => T): T {
  try {
    return read(answer);
  } catch (e) {
    if (!(e instanceof UnusableAnswer)) throw e;
    const refusal = refusedIn(answer);
    if (refusal) throw new ProviderRefused("flutterwave", `${what}: ${refusal}`);
    throw new ProviderUnavailable("flutterwave", `${what}: answered ${answer.status}: ${e.message}`);
  }
}

function customerFields(req: IssueRequest) {
  return { email: req.customer.email, fullname: req.customer.fullName, phone_number: req.customer.mobileNumber };
}

function verifyByReference(account: ProviderAccount, reference: string, signal: AbortSignal): Promise<ProviderAnswer> {
  return call(account, "GET", `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(reference)}`, signal);
}

/** Flutterwave's transaction id for Owo's reference: what refunds are addressed to. */
async function transactionId(account: ProviderAccount, reference: string, signal: AbortSignal): Promise<string> {
  const found = await verifyByReference(account, reference, signal);
  return readWith("GET /v3/transactions/verify_by_reference", found, (a) => readTransactionId(a.body));
}

/** At most this many pages of a transaction's refunds are read when looking for one. */
const MAX_LOOKUP_PAGES = 10;

export const flutterwave: Connector = {
  name: "flutterwave",

  serves(channel, bank) {
    if (channel === "TRANSFER") return true;
    return bank !== undefined && USSD_BANK_CODES.has(bank.bankCode);
  },

  async issue(account, req, signal) {
    const common = { tx_ref: req.reference, amount: formatKobo(req.amountKobo), currency: req.currency, ...customerFields(req) };
    if (req.channel === "USSD") {
      // The registry asks serves() first; reaching here without a bank is a routing bug, not a provider outage.
      if (!req.bank) throw new Error("a Flutterwave USSD charge needs the customer's bank");
      const answer = await call(account, "POST", "/v3/charges?type=ussd", signal, { ...common, account_bank: req.bank.bankCode });
      return readWith("POST /v3/charges?type=ussd", answer, (a) => readUssdCharge(a.body));
    }
    // The account lives as long as Owo's payment (whole seconds, at least one); Flutterwave may answer an earlier expiry.
    const expires = Math.max(1, Math.floor((req.expiresAt - clock.now()) / 1000));
    const answer = await call(account, "POST", "/v3/charges?type=bank_transfer", signal, {
      ...common,
      narration: req.merchantName,
      is_permanent: false,
      expires,
    });
    const issued = readWith("POST /v3/charges?type=bank_transfer", answer, (a) => readTransferCharge(a.body, req.merchantName));
    return issued.expiresAt === undefined || issued.expiresAt > req.expiresAt ? { ...issued, expiresAt: req.expiresAt } : issued;
  },

  readNotice(account, rawBody, headers) {
    // No secret hash saved: nothing can prove a webhook came from Flutterwave, so none is believed.
    const proven = flutterwaveNoticeProven(headers, rawBody, account.credentials.secretHash);
    if (!proven) throw new NoticeRejected("neither verif-hash nor flutterwave-signature matches the secret hash");
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString("utf8"));
    } catch {
      return { kind: "ignored", eventId: "flutterwave:unreadable", why: "webhook body is not JSON" };
    }
    return readWebhook(body);
  },

  async query(account, reference, signal) {
    const answer = await verifyByReference(account, reference, signal);
    return readWith("GET /v3/transactions/verify_by_reference", answer, (a) => readTransaction(a.status, a.body, reference));
  },

  // Refunds are addressed to Flutterwave's transaction id, found by Owo's reference first. Flutterwave takes no
  // idempotency key here: Owo's refundReference travels in `comments` so a person can match them at Flutterwave.
  async refund(account, req, signal) {
    const id = await transactionId(account, req.reference, signal).catch((e: unknown) => {
      // The refund itself was never sent: whatever went wrong, sending it again is safe.
      throw e instanceof ProviderUnavailable ? new ProviderUnavailable("flutterwave", e.message, false) : e;
    });
    const comments = `${req.reason} (${req.refundReference})`;
    const answer = await call(account, "POST", `/v3/transactions/${encodeURIComponent(id)}/refund`, signal, {
      amount: formatKobo(req.amountKobo),
      comments,
    });
    return readWith("POST /v3/transactions/{id}/refund", answer, (a) => readRefund(a.body));
  },

  // The refund call takes no idempotency key, so an unanswered one is looked for before it is ever sent again: the
  // transaction's refunds since then, of this amount, whose comments (where echoed) name Owo's refundReference.
  async findRefund(account, lookup, signal) {
    const id = await transactionId(account, lookup.reference, signal);
    const from = new Date(lookup.since - 86_400_000).toISOString().slice(0, 10);
    for (let page = 1; page <= MAX_LOOKUP_PAGES; page++) {
      const answer = await call(account, "GET", `/v3/refunds?id=${encodeURIComponent(id)}&from=${from}&page=${page}`, signal);
      const { refunds, listed, totalPages } = readWith("GET /v3/refunds", answer, (a) => readRefundList(a.body));
      const mine = refunds.find(
        (r) =>
          (r.transactionId === undefined || r.transactionId === id) &&
          r.amountKobo === lookup.amountKobo &&
          (r.comments === undefined || r.comments.includes(lookup.refundReference)) &&
          !lookup.knownRefundIds.includes(r.refundId),
      );
      if (mine) return { refundId: mine.refundId, state: mine.state };
      // Only a list read to its end says Flutterwave has no such refund; without page_info, that is an empty page.
      if (totalPages === undefined ? listed === 0 : page >= totalPages) return null;
    }
    throw new ProviderUnavailable("flutterwave", `GET /v3/refunds: more than ${MAX_LOOKUP_PAGES} pages of refunds for transaction ${id}`);
  },

  async queryRefund(account, refundId, signal) {
    const answer = await call(account, "GET", `/v3/refunds/${encodeURIComponent(refundId)}`, signal);
    return readWith("GET /v3/refunds/{id}", answer, (a) => readRefund(a.body));
  },

  readSettlements: (account, since, known, signal) =>
    readFlutterwaveSettlements((path) => call(account, "GET", path, signal), since, known),

  // The balances call changes nothing and needs the secret key: a 200 proves the key.
  async testConnection(account, signal) {
    const answer = await call(account, "GET", "/v3/balances", signal);
    if (answer.status !== 200) throw new ProviderUnavailable("flutterwave", `GET /v3/balances: answered ${answer.status}`);
  },
};
