// Flutterwave v3's answers, read into Owo's words (its webhooks: ./notices.ts). Pure functions (no I/O): the contract test replays
// the samples of Flutterwave's docs through them, and the connector reads every live answer with them.
// Sources are listed in ./connector.ts.
import { parseNairaAnswer } from "../../money";
import type { Issued, ProviderPaymentState, RefundState } from "../connector";

/** An answer Owo cannot use (wrong shape, an error envelope, an unreadable amount); the connector tells a refusal
 * (ProviderRefused) from a broken answer (ProviderUnavailable). */
export class UnusableAnswer extends Error {}

/** The banks Flutterwave's USSD guide lists ("USSD payments are currently only supported for the following banks"). */
export const USSD_BANK_CODES: ReadonlySet<string> = new Set([
  "044",
  "050",
  "070",
  "011",
  "214",
  "058",
  "030",
  "082",
  "303",
  "105",
  "221",
  "232",
  "032",
  "033",
  "215",
  "090110",
  "035",
  "057",
]);

type Json = Record<string, unknown>;

export function record(v: unknown): Json | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

export function text(v: unknown): string | undefined {
  if (typeof v === "string" && v !== "") return v;
  return typeof v === "number" && Number.isSafeInteger(v) ? String(v) : undefined;
}

/** Flutterwave's envelope: `{"status":"success"|"error","message":…,"data":…}`; anything but success is refused. */
function successful(body: unknown): Json {
  const b = record(body);
  if (!b) throw new UnusableAnswer("answer is not a JSON object");
  if (b.status !== "success") throw new UnusableAnswer(`refused: ${typeof b.message === "string" ? b.message : "no message"}`);
  return b;
}

function kobo(v: unknown, field: string): number {
  const k = parseNairaAnswer(v);
  if (k === null) throw new UnusableAnswer(`${field} is not a naira amount with at most 2 decimals`);
  return k;
}

/** The charge's authorization block: at the top level in the docs' samples, inside `data` in some answers. */
function authorization(b: Json): Json | undefined {
  return record(record(b.meta)?.authorization) ?? record(record(record(b.data)?.meta)?.authorization);
}

const DIAL_CODE = /^\*[0-9*]+#$/;

/** `POST /v3/charges?type=ussd` → the code the customer dials, exactly as Flutterwave wrote it in `meta.authorization.note`. */
export function readUssdCharge(body: unknown): Extract<Issued, { channel: "USSD" }> {
  const b = successful(body);
  const flwRef = text(record(b.data)?.flw_ref);
  const note = authorization(b)?.note;
  if (!flwRef) throw new UnusableAnswer("USSD charge without data.flw_ref");
  if (typeof note !== "string" || !DIAL_CODE.test(note))
    throw new UnusableAnswer("USSD charge without a dial code in meta.authorization.note");
  return { channel: "USSD", providerReference: flwRef, dialCode: note };
}

/** "Please make a bank transfer to Ada Stores" → "Ada Stores": the name the customer sees at name enquiry. */
function accountNameFrom(note: unknown): string | undefined {
  if (typeof note !== "string") return undefined;
  return /bank transfer to\s+(.+?)\.?\s*$/i.exec(note)?.[1];
}

/** `account_expiration`: epoch milliseconds in the SDK's sample; a "YYYY-MM-DD HH:mm:ss" in Lagos time (UTC+1, no DST) in older pages. */
function expirationFrom(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v !== "string") return undefined;
  const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(v);
  const at = local ? Date.parse(`${local[1]}T${local[2]}+01:00`) : Date.parse(v);
  return Number.isNaN(at) ? undefined : at;
}

/** `POST /v3/charges?type=bank_transfer` → the temporary account in `meta.authorization`; its `transfer_reference` is the flw_ref. */
export function readTransferCharge(body: unknown, merchantName: string): Extract<Issued, { channel: "TRANSFER" }> {
  const auth = authorization(successful(body));
  if (!auth) throw new UnusableAnswer("bank transfer charge without meta.authorization");
  const reference = text(auth.transfer_reference);
  const account = text(auth.transfer_account);
  const bank = text(auth.transfer_bank);
  if (!reference) throw new UnusableAnswer("bank transfer charge without transfer_reference");
  if (!account || !/^\d{10}$/.test(account)) throw new UnusableAnswer("bank transfer charge without a 10-digit transfer_account");
  if (!bank) throw new UnusableAnswer("bank transfer charge without transfer_bank");
  const expiresAt = expirationFrom(auth.account_expiration);
  return {
    channel: "TRANSFER",
    providerReference: reference,
    accountNumber: account,
    bankName: bank,
    accountName: accountNameFrom(auth.transfer_note) ?? merchantName,
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}

/** Flutterwave's transaction statuses → Owo's. "successful" is the only paid one; anything unknown stays pending. */
function paymentState(status: unknown): ProviderPaymentState["state"] {
  if (status === "successful") return "paid";
  if (status === "failed" || status === "cancelled" || status === "abandoned" || status === "voided") return "failed";
  return "pending";
}

/**
 * When Flutterwave recorded the money, where its record says (API.md "Which time decides"). v3's record has only
 * created_at. A bank transfer's record comes to life when the transfer arrives — its charge answer holds only the
 * account, no transaction (bank-transfer-charge.json), and its webhook sample's created_at falls after the charge's
 * tx_ref and customer were made (webhook-bank-transfer.json) — so there created_at is the paid-at. A USSD record
 * exists from the charge (ussd-charge.json: data.created_at while pending), so its created_at is not, and the
 * notice's or the query's arrival decides.
 */
function paidAtOf(data: Json, state: ProviderPaymentState["state"]): number | undefined {
  if (state !== "paid" || data.payment_type !== "bank_transfer" || typeof data.created_at !== "string") return undefined;
  const at = Date.parse(data.created_at);
  return Number.isNaN(at) ? undefined : at;
}

/** `GET /v3/transactions/verify_by_reference?tx_ref=` → how the payment stands in Flutterwave's own record. */
export function readTransaction(httpStatus: number, body: unknown, reference: string): ProviderPaymentState {
  const b = record(body);
  if (b?.status === "error" && (httpStatus === 400 || httpStatus === 404) && /no transaction/i.test(String(b.message))) {
    return { state: "not_found", amountKobo: 0, currency: "NGN" };
  }
  const data = record(successful(body).data);
  if (!data) throw new UnusableAnswer("transaction answer without data");
  if (data.tx_ref !== reference) throw new UnusableAnswer(`transaction answer is for tx_ref ${String(data.tx_ref)}, not ${reference}`);
  if (typeof data.currency !== "string") throw new UnusableAnswer("transaction answer without currency");
  const flwRef = text(data.flw_ref);
  const state = paymentState(data.status);
  const asked = kobo(data.amount, "data.amount");
  // charged_amount adds what the customer bore on top (API.md "Fees"); app_fee is Flutterwave's whole fee.
  const charged =
    data.charged_amount === undefined || data.charged_amount === null ? asked : kobo(data.charged_amount, "data.charged_amount");
  const fee = data.app_fee === undefined || data.app_fee === null ? undefined : kobo(data.app_fee, "data.app_fee");
  const paidAt = paidAtOf(data, state);
  return {
    state,
    ...(paidAt === undefined ? {} : { paidAt }),
    ...(flwRef ? { providerReference: flwRef } : {}),
    amountKobo: Math.min(asked, charged),
    ...(charged > asked ? { chargedKobo: charged } : {}),
    ...(fee !== undefined && state === "paid" ? { feeKobo: Math.max(0, fee - Math.max(0, charged - asked)) } : {}),
    currency: data.currency,
  };
}

/**
 * Flutterwave's words for a refund paid out (API.md: `completed` and `successful` are PROCESSED): `completed` in its
 * refund pages, `successful` in others, and per channel `completed-bank-transfer`, `completed-momo`, `completed-mpgs`
 * (cards), `completed-offline` and `completed-preauth` (its refund status table,
 * https://developer.flutterwave.com/docs/collecting-payments/refunds). `processing` and `pending-momo` are on the way.
 */
const PAID_OUT = new Set([
  "completed",
  "successful",
  "completed-bank-transfer",
  "completed-momo",
  "completed-mpgs",
  "completed-offline",
  "completed-preauth",
]);

function refundState(status: unknown): RefundState["state"] {
  return typeof status === "string" && PAID_OUT.has(status) ? "processed" : status === "failed" ? "failed" : "pending";
}

/** `POST /v3/transactions/{id}/refund` and `GET /v3/refunds/{id}` → the refund and how it stands. */
export function readRefund(body: unknown): RefundState {
  const data = record(successful(body).data);
  const id = text(data?.id);
  if (!data || !id) throw new UnusableAnswer("refund answer without data.id");
  return { refundId: id, state: refundState(data.status) };
}

export type ListedRefund = RefundState & { transactionId?: string; amountKobo: number | null; comments?: string };

/** `GET /v3/refunds` (get all refunds): the records Owo can read, how many the page listed, and how many pages there are
 * (undefined without `meta.page_info`). */
export function readRefundList(body: unknown): { refunds: ListedRefund[]; listed: number; totalPages: number | undefined } {
  const b = successful(body);
  if (!Array.isArray(b.data)) throw new UnusableAnswer("refund list without a data array");
  const refunds = b.data.flatMap((item): ListedRefund[] => {
    const r = record(item);
    const id = text(r?.id);
    if (!r || !id) return [];
    const transactionId = text(r.transaction_id ?? r.tx_id);
    const comments = typeof r.comments === "string" ? r.comments : typeof r.comment === "string" ? r.comment : undefined;
    return [
      {
        refundId: id,
        state: refundState(r.status),
        amountKobo: parseNairaAnswer(r.amount_refunded),
        ...(transactionId ? { transactionId } : {}),
        ...(comments !== undefined ? { comments } : {}),
      },
    ];
  });
  const pages = record(record(record(b.meta)?.page_info))?.total_pages;
  return {
    refunds,
    listed: b.data.length,
    totalPages: typeof pages === "number" && Number.isSafeInteger(pages) && pages > 0 ? pages : undefined,
  };
}

/** The transaction id (`data.id`) that refunds are addressed to, from a verify answer. */
export function readTransactionId(body: unknown): string {
  const id = text(record(successful(body).data)?.id);
  if (!id) throw new UnusableAnswer("transaction answer without data.id");
  return id;
}
