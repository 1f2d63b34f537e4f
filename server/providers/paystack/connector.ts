// Paystack as a bank-side provider: USSD and bank-transfer charges through the Charge API, `charge.success` and
// refund webhooks, verify, refunds. Written from Paystack's published docs, read 2026-11:
//   https://paystack.com/docs/api/charge/                          POST /charge (amount in kobo, reference, ussd, bank_transfer)
//   https://paystack.com/docs/payments/payment-channels/#ussd      ussd.type 737/919/822/966, `pay_offline` + ussd_code, its charge.success
//   https://paystack.com/docs/payments/payment-channels/#pay-with-transfer  bank_transfer.account_expires_at, `pending_bank_transfer`
//   https://support.paystack.com/en/articles/2128642               pay with transfer: 30-minute accounts, a wrong amount is refunded by Paystack
//   https://paystack.com/docs/payments/webhooks/                   x-paystack-signature (HMAC-SHA512 of the body, secret key), event samples
//   https://paystack.com/docs/api/transaction/#verify              GET /transaction/verify/{reference}
//   https://paystack.com/docs/api/refund/                          POST /refund, GET /refund/{id}, GET /refund (List Refunds:
//                                                                  perPage, page, from, to; records carry transaction_reference
//                                                                  and merchant_note — PaystackOSS/openapi RefundListResponse)
//   https://paystack.com/docs/payments/refunds/                    refund.pending/processing/processed/failed/needs-attention
//                                                                  events; a needs-attention refund is retried with the
//                                                                  customer's account (POST /refund/retry_with_customer_details/{id},
//                                                                  OpenAPI RefundRetry: currency, account_number, bank_id as a
//                                                                  string, the bank's `id` from List Banks)
//   https://paystack.com/docs/api/miscellaneous/#bank              GET /bank?country=nigeria (List Banks: id, code, name; cursor pages)
//   https://paystack.com/docs/api/transfer-control/#balance        GET /balance (the harmless call behind "test connection")
//   https://paystack.com/docs/api/settlement/                      GET /settlement, GET /settlement/{id}/transactions (./settlements.ts)
//   https://paystack.com/docs/api/dispute/                         GET /dispute?transaction=<id> (List Disputes): what a
//                                                                  reversed transaction's disputes took back (./disputes.ts)
// The samples those pages render live in github.com/PaystackOSS/doc-code-snippets (the contract test's fixtures are
// copied from there) and the request schemas in github.com/PaystackOSS/openapi (dist/paystack.yaml: the USSD enum).
import type { Bank } from "../banks";
import {
  NoticeRejected,
  ProviderUnavailable,
  type Connector,
  type IssueRequest,
  type ProviderAccount,
  type ProviderBank,
} from "../connector";
import { callWithBearer, type AccountCall } from "../provider-call";
import {
  listedRefundState,
  readBalanceAnswer,
  lastPage,
  readBankList,
  readChargeAnswer,
  readRefundAnswer,
  readRefundList,
  readVerifyAnswer,
} from "./wire";
import { chargebacksOf } from "./disputes";
import { readWebhook } from "./notices";
import { readPaystackSettlements } from "./settlements";
import { PAYSTACK_SIGNATURE_HEADER, paystackSignatureValid } from "./signature";

/** The `ussd.type` values Paystack accepts (its OpenAPI `USSD.type` enum): each is the bank's own short code. */
export const PAYSTACK_USSD_TYPES = ["737", "919", "822", "966"] as const;

/** banks.json's short code `*737#` is Paystack's type `737`; a bank whose code is not in Paystack's list has none. */
export function paystackUssdType(bank: Bank): string | undefined {
  const digits = bank.ussdCode?.match(/^\*(\d+)#$/)?.[1];
  return PAYSTACK_USSD_TYPES.find((t) => t === digits);
}

function secretKey(account: ProviderAccount): string {
  const key = account.credentials.secretKey;
  if (!key) throw new ProviderUnavailable("paystack", `${account.id}: no secret key`);
  return key;
}

const call: AccountCall = (account, method, path, signal, body) =>
  callWithBearer("paystack", account, secretKey(account), { method, path, body }, signal);

function chargeBody(req: IssueRequest): Record<string, unknown> {
  const common = {
    email: req.customer.email,
    amount: req.amountKobo,
    currency: req.currency,
    reference: req.reference,
    metadata: {
      custom_fields: [
        { display_name: "Customer", variable_name: "customer_name", value: req.customer.fullName },
        { display_name: "Mobile", variable_name: "customer_mobile", value: req.customer.mobileNumber },
      ],
    },
  };
  if (req.channel === "TRANSFER") return { ...common, bank_transfer: { account_expires_at: new Date(req.expiresAt).toISOString() } };
  const type = req.bank ? paystackUssdType(req.bank) : undefined;
  // The registry asks serves() first; reaching here without a type is a routing bug, not a provider outage.
  if (!type) throw new Error(`Paystack has no USSD type for bank ${req.bank?.bankCode ?? "(none)"}`);
  return { ...common, ussd: { type } };
}

/** List Banks is read in cursor pages of 100; Paystack lists a few hundred Nigerian banks. */
const MAX_BANK_PAGES = 10;

/** A refund is looked for among those made from a minute before its submission (clocks differ)… */
const LOOKUP_MARGIN_MS = 60_000;
/** …in at most this many pages… */
const MAX_LOOKUP_PAGES = 20;
/** …of this many. */
const REFUNDS_A_PAGE = 100;

export const paystack: Connector = {
  name: "paystack",

  serves(channel, bank) {
    return channel === "TRANSFER" || (bank !== undefined && paystackUssdType(bank) !== undefined);
  },

  async issue(account, req, signal) {
    if (!Number.isSafeInteger(req.amountKobo) || req.amountKobo <= 0) throw new Error("amountKobo must be a positive integer");
    // Paystack refuses any other character in a reference; a reference it cannot take is the caller's bug.
    if (!/^[A-Za-z0-9.=-]{1,100}$/.test(req.reference))
      throw new Error(`Paystack references allow only letters, digits, "-", "." and "=": ${req.reference}`);
    const answer = await call(account, "POST", "/charge", signal, chargeBody(req));
    return readChargeAnswer(req.channel, answer.status, answer.body);
  },

  readNotice(account, rawBody, headers) {
    if (!paystackSignatureValid(headers[PAYSTACK_SIGNATURE_HEADER], rawBody, account.credentials.secretKey ?? "")) {
      throw new NoticeRejected(`${PAYSTACK_SIGNATURE_HEADER} missing or not the HMAC-SHA512 of this body with the account's secret key`);
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString("utf8"));
    } catch {
      throw new NoticeRejected("signed body is not JSON");
    }
    return readWebhook(body);
  },

  async query(account, reference, signal) {
    const answer = await call(account, "GET", `/transaction/verify/${encodeURIComponent(reference)}`, signal);
    const state = readVerifyAnswer(answer.status, answer.body);
    if (state.state !== "reversed") return state;
    const chargebacks = await chargebacksOf((path) => call(account, "GET", path, signal), answer.body);
    return chargebacks ? { ...state, chargebacks } : state;
  },

  async refund(account, req, signal) {
    const answer = await call(account, "POST", "/refund", signal, {
      transaction: req.providerReference,
      amount: req.amountKobo,
      currency: "NGN",
      customer_note: req.reason,
      merchant_note: `${req.reason} (Owo refund ${req.refundReference} for ${req.reference})`,
    });
    return readRefundAnswer("POST /refund", answer.status, answer.body);
  },

  async queryRefund(account, refundId, signal) {
    const answer = await call(account, "GET", `/refund/${encodeURIComponent(refundId)}`, signal);
    return readRefundAnswer("GET /refund", answer.status, answer.body);
  },

  // POST /refund takes no idempotency key, so an unanswered one is looked for before it is ever sent again: among the
  // refunds made since it was submitted, the one of this transaction and amount whose merchant_note names Owo's
  // refundReference (Paystack echoes the note in every record).
  async findRefund(account, lookup, signal) {
    const from = new Date(lookup.since - LOOKUP_MARGIN_MS).toISOString();
    // Paystack's OpenAPI requires transaction_reference and merchant_note, but its own List Refunds samples carry
    // neither: a record of this amount that may be of this transaction and does not say whose it is could be this
    // refund, so if nothing else is found there is no verdict rather than a refund sent twice.
    let unsure = false;
    for (let page = 1; page <= MAX_LOOKUP_PAGES; page++) {
      const answer = await call(account, "GET", `/refund?from=${encodeURIComponent(from)}&perPage=${REFUNDS_A_PAGE}&page=${page}`, signal);
      const { refunds, listed, pageCount } = readRefundList(answer.status, answer.body);
      const candidates = refunds.filter(
        (r) =>
          r.amount === lookup.amountKobo &&
          !lookup.knownRefundIds.includes(r.id) &&
          (!r.transaction_reference || r.transaction_reference === lookup.providerReference),
      );
      const mine = candidates.find((r) => r.transaction_reference && (r.merchant_note ?? "").includes(lookup.refundReference));
      if (mine) return listedRefundState(mine);
      unsure ||= candidates.some((r) => !r.transaction_reference || !r.merchant_note);
      // Only a list read to its end says Paystack has no such refund: Owo would otherwise ask for it again.
      if (lastPage(page, REFUNDS_A_PAGE, listed, pageCount)) {
        if (unsure) throw new ProviderUnavailable("paystack", "GET /refund: a refund of this amount that does not say whose it is");
        return null;
      }
    }
    // More refunds since then than Owo reads: no certainty either way, so no verdict (it is asked again later).
    throw new ProviderUnavailable("paystack", `GET /refund: more than ${MAX_LOOKUP_PAGES} pages of refunds since ${from}`);
  },

  readSettlements: (account, since, known, signal) => readPaystackSettlements((path) => call(account, "GET", path, signal), since, known),

  async refundBanks(account, signal) {
    const banks: ProviderBank[] = [];
    let cursor: string | null = "";
    for (let page = 0; cursor !== null && page < MAX_BANK_PAGES; page++) {
      const next = cursor ? `&next=${encodeURIComponent(cursor)}` : "";
      const answer = await call(account, "GET", `/bank?country=nigeria&currency=NGN&use_cursor=true&perPage=100${next}`, signal);
      const read = readBankList(answer.status, answer.body);
      banks.push(...read.banks);
      cursor = read.next;
    }
    return banks;
  },

  async retryRefund(account, refundId, to, signal) {
    if (!/^\d+$/.test(refundId)) throw new Error(`Paystack refund ids are integers: ${refundId}`);
    const answer = await call(account, "POST", `/refund/retry_with_customer_details/${refundId}`, signal, {
      refund_account_details: { currency: to.currency, account_number: to.accountNumber, bank_id: to.bank.providerBankId },
    });
    return readRefundAnswer("POST /refund/retry_with_customer_details", answer.status, answer.body);
  },

  async testConnection(account, signal) {
    const answer = await call(account, "GET", "/balance", signal);
    readBalanceAnswer(answer.status, answer.body);
  },
};
