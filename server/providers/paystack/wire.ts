// Paystack's JSON in Owo's words: charge answers → Issued, verify → ProviderPaymentState, refunds → RefundState (its
// webhook events in ./notices.ts). Shapes from the samples on Paystack's pages (cited in ./connector.ts); the contract
// test replays every sample through these functions. Amounts are integer kobo (Paystack's "subunit"), sometimes
// written as a digit string (refund events): both are read without ever passing through a float.
import { z } from "zod";
import {
  ProviderRefused,
  ProviderUnavailable,
  type Channel,
  type Issued,
  type ProviderBank,
  type ProviderPaymentState,
  type RefundState,
} from "../connector";
import type { ProviderAnswer } from "../provider-call";

export const kobo = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);
export const instant = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), "must be a date")
  .transform((s) => Date.parse(s));

const failure = z.object({ status: z.literal(false), message: z.string() });
export const success = <T extends z.ZodType>(data: T) => z.object({ status: z.literal(true), message: z.string(), data });

const PAGE = 100;
/** Past this many pages of one list, Owo stops reading and says so rather than act on a list half read. */
const MAX_PAGES = 50;
const page = <T extends z.ZodType>(item: T) =>
  success(z.array(item)).extend({ meta: z.object({ pageCount: z.number().int().nonnegative() }).partial().optional() });

/** One GET of Paystack's API, with the account's key (the connector's). */
export type Get = (path: string) => Promise<ProviderAnswer>;

/**
 * Whether page `n` of a list was its last: by `meta.pageCount` where Paystack gives it. Where it does not (its own
 * samples of some lists carry no `meta`), a full page may have more behind it: only a page shorter than the `perPage`
 * asked for is the last, so a list is never taken as read whole after its first page.
 */
export function lastPage(n: number, perPage: number, listed: number, pageCount: number | undefined): boolean {
  return pageCount === undefined ? listed < perPage : n >= pageCount;
}

/** Every page of one of Paystack's lists (settlements, refunds, disputes): `perPage`, `page` and `meta.pageCount`. */
export async function everyPage<T extends z.ZodType>(get: Get, what: string, path: string, item: T): Promise<z.output<T>[]> {
  const all: z.output<T>[] = [];
  for (let n = 1; n <= MAX_PAGES; n++) {
    const answer = await get(`${path}${path.includes("?") ? "&" : "?"}perPage=${PAGE}&page=${n}`);
    const read = page(item).safeParse(answer.body);
    if (answer.status !== 200 || !read.success) throw unusable(`GET ${what}`, `a list of ${what}`, answer.body, answer.status);
    all.push(...read.data.data);
    if (lastPage(n, PAGE, read.data.data.length, read.data.meta?.pageCount)) return all;
  }
  throw unusable(`GET ${what}`, `at most ${MAX_PAGES} pages`, null, 200);
}

const ussdCharge = success(
  z.object({ reference: z.string().min(1), status: z.literal("pay_offline"), ussd_code: z.string().regex(/^\*[0-9*]+#$/) }),
);
const transferCharge = success(
  z.object({
    reference: z.string().min(1),
    status: z.literal("pending_bank_transfer"),
    account_name: z.string().min(1),
    account_number: z.string().regex(/^\d{10}$/),
    bank: z.object({ name: z.string().min(1) }),
    account_expires_at: instant.nullish(),
  }),
);

export const transaction = z.object({
  id: z.number().int(),
  status: z.string(),
  reference: z.string(),
  amount: kobo,
  currency: z.string(),
  paid_at: instant.nullish(),
  paidAt: instant.nullish(),
  /** What the merchant asked for; `amount` adds the fees a customer bears (Paystack's "pass charges to customer"). */
  requested_amount: kobo.nullish(),
  /** Paystack's whole fee on the transaction, whoever bore it. */
  fees: kobo.nullish(),
});

const refund = z.object({ id: z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(String), status: z.string() });

/** What Paystack said when it refused a request (4xx): its own `message`, for the S502 list and the logs. */
export function refusal(status: number, body: unknown): string {
  const f = failure.safeParse(body);
  return `refused (${status}): ${f.success ? f.data.message : "no message"}`;
}

/** `POST /charge`: the dial code or the temporary account. Anything else is not an issued charge. */
export function readChargeAnswer(channel: Channel, status: number, body: unknown): Issued {
  if (channel === "USSD") {
    const a = ussdCharge.safeParse(body);
    if (status !== 200 || !a.success) throw unusable("POST /charge", "a pay_offline charge with a ussd_code", body, status);
    return { channel, providerReference: a.data.data.reference, dialCode: a.data.data.ussd_code };
  }
  const a = transferCharge.safeParse(body);
  if (status !== 200 || !a.success) throw unusable("POST /charge", "a pending_bank_transfer charge with an account", body, status);
  const d = a.data.data;
  return {
    channel,
    providerReference: d.reference,
    accountNumber: d.account_number,
    bankName: d.bank.name,
    accountName: d.account_name,
    ...(d.account_expires_at ? { expiresAt: d.account_expires_at } : {}),
  };
}

/**
 * `GET /transaction/verify/{reference}`. Paystack's transaction statuses: success, failed, abandoned, reversed,
 * and the in-flight ones (ongoing, pending, processing, queued). Only `success` counts money as received; a declined
 * debit is failed. `abandoned` only means nobody completed the charge yet (Paystack says so of a dial code not yet
 * dialled), so, like `ongoing`, it is not paid yet: Owo's own expiry closes the payment (API.md "Live mode").
 * A `success` is credited the amount asked (`requested_amount`); `amount` also holds the fees a customer bore, and
 * the merchant's fee is `fees` less that part (API.md "Fees").
 */
export function readVerifyAnswer(status: number, body: unknown): ProviderPaymentState {
  if (status === 404 || (status === 400 && /not found/i.test(failure.safeParse(body).data?.message ?? ""))) {
    return { state: "not_found", amountKobo: 0, currency: "NGN" };
  }
  const a = success(transaction).safeParse(body);
  if (status !== 200 || !a.success) throw unusable("GET /transaction/verify", "a transaction", body, status);
  const t = a.data.data;
  const paidAt = t.paid_at ?? t.paidAt ?? undefined;
  const base = { providerReference: t.reference, currency: t.currency };
  switch (t.status) {
    case "success":
      return { ...base, state: "paid", ...moneyOf(t), ...(paidAt ? { paidAt } : {}) };
    case "reversed":
      return { ...base, state: "reversed", ...moneyOf(t), ...(paidAt ? { paidAt } : {}) };
    case "failed":
      return { ...base, state: "failed", amountKobo: 0 };
    default: // ongoing, pending, processing, queued, abandoned: not paid yet
      return { ...base, state: "pending", amountKobo: 0 };
  }
}

/** The amount asked, what the customer was charged where it differs, and the merchant's share of `fees`. */
export function moneyOf(t: z.output<typeof transaction>): Pick<ProviderPaymentState, "amountKobo" | "chargedKobo" | "feeKobo"> {
  const charged = t.amount;
  // Never more than was charged: a record whose requested_amount exceeds its amount is read by its amount.
  const asked = Math.min(t.requested_amount ?? charged, charged);
  return {
    amountKobo: asked,
    ...(charged !== asked ? { chargedKobo: charged } : {}),
    ...(t.fees !== null && t.fees !== undefined ? { feeKobo: Math.max(0, t.fees - (charged - asked)) } : {}),
  };
}

/** `GET /balance` (test connection): any authenticated success will do; a 401 "Invalid key" will not. */
export function readBalanceAnswer(status: number, body: unknown): void {
  if (status !== 200 || !success(z.array(z.object({ currency: z.string(), balance: kobo }))).safeParse(body).success) {
    throw unusable("GET /balance", "balances", body, status);
  }
}

/** `POST /refund` and `GET /refund/{id}`: pending and processing are still on their way; needs-attention waits on a person. */
export function readRefundAnswer(what: string, status: number, body: unknown): RefundState {
  const a = success(refund).safeParse(body);
  if (status !== 200 || !a.success) throw unusable(what, "a refund", body, status);
  return { refundId: a.data.data.id, state: refundState(a.data.data.status) };
}

const listedRefund = z.object({
  id: z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(String),
  status: z.string(),
  amount: kobo,
  transaction_reference: z.string().nullish(),
  merchant_note: z.string().nullish(),
});
const refundList = success(z.array(z.unknown())).extend({
  meta: z.object({ pageCount: z.number().int().nonnegative() }).partial().optional(),
});

/** `GET /refund` (List Refunds): the records Owo can read, how many the page listed, and how many pages there are. */
export function readRefundList(
  status: number,
  body: unknown,
): { refunds: z.output<typeof listedRefund>[]; listed: number; pageCount: number | undefined } {
  const a = refundList.safeParse(body);
  if (status !== 200 || !a.success) throw unusable("GET /refund", "a list of refunds", body, status);
  const refunds = a.data.data.flatMap((r) => {
    const read = listedRefund.safeParse(r);
    return read.success ? [read.data] : [];
  });
  return { refunds, listed: a.data.data.length, pageCount: a.data.meta?.pageCount };
}

/** One listed refund as a RefundState. */
export function listedRefundState(r: { id: string; status: string }): RefundState {
  return { refundId: r.id, state: refundState(r.status) };
}

/** Paystack's refund statuses: pending, processing, processed, failed, and needs-attention (it waits for the
 * customer's account: https://paystack.com/docs/payments/refunds/). */
function refundState(status: string): RefundState["state"] {
  if (status === "needs-attention") return "needs_attention";
  return status === "processed" ? "processed" : status === "failed" ? "failed" : "pending";
}

const listedBank = z.object({
  id: z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(String),
  name: z.string().min(1),
  code: z.string().regex(/^\d{3,6}$/),
  active: z.boolean().optional(),
  is_deleted: z.boolean().nullish(),
});
const bankList = success(z.array(z.unknown())).extend({ meta: z.object({ next: z.string().nullish() }).partial().optional() });

/** `GET /bank` (List Banks): the active banks Owo can read, and the cursor of the next page (null on the last). */
export function readBankList(status: number, body: unknown): { banks: ProviderBank[]; next: string | null } {
  const a = bankList.safeParse(body);
  if (status !== 200 || !a.success) throw unusable("GET /bank", "a list of banks", body, status);
  const banks = a.data.data.flatMap((b) => {
    const read = listedBank.safeParse(b);
    if (!read.success || read.data.active === false || read.data.is_deleted === true) return [];
    return [{ code: read.data.code, name: read.data.name, providerBankId: read.data.id }];
  });
  return { banks, next: a.data.meta?.next ?? null };
}

/** A 4xx in Paystack's words is its refusal; any other answer without what was asked for is unusable. */
export function unusable(what: string, expected: string, body: unknown, status = 200): Error {
  const f = failure.safeParse(body);
  if (status >= 400 && status < 500 && f.success) return new ProviderRefused("paystack", `${what}: ${refusal(status, body)}`);
  return new ProviderUnavailable("paystack", `${what}: answered ${status} without ${expected}`);
}
