// Initiating a payment: validate, replay or refuse a used reference, issue from the bank side, store — one transaction.
import { and, eq, getTableColumns, sql, type Placeholder } from "drizzle-orm";
import { preparedQueries, write } from "../../db/client";
import { merchants, payments, type Mode } from "../../db/schema";
import { ApiError } from "../api-error";
import { randomDigits } from "../identifiers";
import { bankByCode } from "../providers/banks";
import { providerFor, type IssuedDialCode, type OpenedAccount } from "../providers/provider";
import { settings } from "../settings";
import type { InitiateRequest, PaymentType } from "./initiate-schema";
import { recordEvent } from "./events";
import { formatKobo } from "./money";
import { clock } from "../clock";

export type PaymentSource = "rest" | "trpc" | "dashboard" | "link" | "seed";

export type Initiation = {
  merchantId: string;
  mode: Mode;
  source: PaymentSource;
  linkId?: string;
  now?: number;
};

type Head = { paymentReference: string; linkingReference: string };
type Tail = { amount: string; expiresAt: string; checkoutUrl: string };

/** API.md's USSD `payments` object, keys in its order (and so in the answer's bytes). */
function ussdPayments(head: Head, code: IssuedDialCode, tail: Tail) {
  return { ...head, providerreference: code.providerReference, ussdDailCode: code.dialCode, ...tail };
}

/** API.md's TRANSFER `payments` object; `wallet` is the account number again, as merchants already read it. */
function transferPayments(head: Head, account: OpenedAccount, walletName: string, tail: Tail) {
  const { paymentReference, linkingReference } = head;
  const { accountNumber, bankName } = account;
  return { paymentReference, walletName, wallet: accountNumber, bankName, accountNumber, linkingReference, ...tail };
}

export type UssdPayments = ReturnType<typeof ussdPayments>;
export type TransferPayments = ReturnType<typeof transferPayments>;

export type InitiateResult = {
  /** The `payments` object exactly as first answered; replays return these very bytes. */
  paymentsJson: string;
  replayed: boolean;
} & ({ paymentType: "USSD"; payments: UssdPayments } | { paymentType: "TRANSFER"; payments: TransferPayments });

function result(paymentType: PaymentType, paymentsJson: string, replayed: boolean): InitiateResult {
  // Owo wrote these bytes itself with the builders above, so the channel tells their shape.
  return paymentType === "USSD"
    ? { paymentType, paymentsJson, replayed, payments: JSON.parse(paymentsJson) as UssdPayments }
    : { paymentType, paymentsJson, replayed, payments: JSON.parse(paymentsJson) as TransferPayments };
}

/** What makes two requests "the same" (API.md Idempotency): every field but publicKey, amount as kobo. */
function fingerprint(req: InitiateRequest): string {
  return JSON.stringify([
    req.paymentType, req.amount, req.fullName, req.mobileNumber, req.email, req.currency, req.country,
    req.paymentReference, req.callbackUrl, req.redirectUrl, req.paymentType === "USSD" ? req.bankCode : null,
  ]);
}

/** The envelope `data` head per channel; the REST door wraps the stored `payments` bytes in it. */
export function answerHead(paymentType: PaymentType): { code: string | null; message: string | null } {
  return paymentType === "USSD" ? { code: null, message: null } : { code: "00", message: "ACCOUNT OPENED SUCCESSFULLY" };
}

export function checkoutUrl(linkingReference: string): string {
  return `${settings().publicUrl}/checkout/${linkingReference}`;
}

type NewPayment = Required<Omit<typeof payments.$inferInsert, "id">>;

/** Every column as a named placeholder: the insert is compiled once, and each initiation names every value. */
const newPaymentValues = Object.fromEntries(
  Object.keys(getTableColumns(payments))
    .filter((key) => key !== "id")
    .map((key) => [key, sql.placeholder(key)]),
) as Record<keyof NewPayment, Placeholder>;

const queries = preparedQueries((db) => ({
  insert: db.insert(payments).values(newPaymentValues).returning().prepare(),
  used: db
    .select({ fingerprint: payments.requestFingerprint, answerJson: payments.answerJson, paymentType: payments.paymentType })
    .from(payments)
    .where(and(eq(payments.merchantId, sql.placeholder("merchantId")), eq(payments.mode, sql.placeholder("mode")), eq(payments.paymentReference, sql.placeholder("paymentReference"))))
    .prepare(),
  merchant: db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, sql.placeholder("merchantId"))).prepare(),
  linkingReference: db.select({ id: payments.id }).from(payments).where(eq(payments.linkingReference, sql.placeholder("candidate"))).prepare(),
  dialCode: db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.bankCode, sql.placeholder("bankCode")), eq(payments.providerReference, sql.placeholder("candidate"))))
    .prepare(),
  account: db.select({ id: payments.id }).from(payments).where(eq(payments.accountNumber, sql.placeholder("candidate"))).prepare(),
}));

function newLinkingReference(): string {
  for (;;) {
    const candidate = `OWO${randomDigits(17)}`;
    if (!queries().linkingReference.get({ candidate })) return candidate;
  }
}

export function initiatePayment(req: InitiateRequest, who: Initiation): InitiateResult {
  const now = who.now ?? clock.now();
  const print = fingerprint(req);
  const provider = providerFor(who.mode);
  const q = queries();
  return write((tx) => {
    const used = q.used.get({ merchantId: who.merchantId, mode: who.mode, paymentReference: req.paymentReference });
    if (used) {
      if (used.fingerprint !== print) {
        throw new ApiError("S14", `paymentReference ${req.paymentReference} was already used with a different request`, [
          { field: "paymentReference", message: "is already used by another payment; send a new reference or the exact same request" },
        ]);
      }
      return result(used.paymentType, used.answerJson, true);
    }
    const merchant = q.merchant.get({ merchantId: who.merchantId });
    if (!merchant) throw new ApiError("S404", "Merchant not found");
    const linkingReference = newLinkingReference();
    const amount = formatKobo(req.amount);
    const ttl = req.paymentType === "USSD" ? settings().ussdTtlSeconds : settings().transferTtlSeconds;
    const expiresAt = now + ttl * 1000;
    const head = { paymentReference: req.paymentReference, linkingReference };
    const tail = { amount, expiresAt: new Date(expiresAt).toISOString(), checkoutUrl: checkoutUrl(linkingReference) };
    let issued: Pick<NewPayment, "bankCode" | "providerReference" | "dialCode" | "accountNumber" | "accountBankName" | "walletName">;
    let answer: UssdPayments | TransferPayments;
    if (req.paymentType === "USSD") {
      const bank = bankByCode(req.bankCode);
      if (!bank) throw new ApiError("S8", "Invalid bankCode: see GET /api/v2/banks");
      const code = provider.issueDialCode(bank, (candidate) => q.dialCode.get({ bankCode: bank.bankCode, candidate }) !== undefined);
      issued = { bankCode: bank.bankCode, providerReference: code.providerReference, dialCode: code.dialCode, accountNumber: null, accountBankName: null, walletName: null };
      answer = ussdPayments(head, code, tail);
    } else {
      const account = provider.openAccount((candidate) => q.account.get({ candidate }) !== undefined);
      const walletName = `OWO(${merchant.name})`;
      issued = { bankCode: null, providerReference: null, dialCode: null, accountNumber: account.accountNumber, accountBankName: account.bankName, walletName };
      answer = transferPayments(head, account, walletName, tail);
    }
    const answerJson = JSON.stringify(answer);
    const values: NewPayment = {
      merchantId: who.merchantId, mode: who.mode, paymentReference: req.paymentReference, linkingReference,
      paymentType: req.paymentType, status: "PENDING", amountKobo: req.amount, amountPaidKobo: 0, amountToRefundKobo: 0,
      currency: req.currency, country: req.country, fullName: req.fullName, mobileNumber: req.mobileNumber, email: req.email,
      callbackUrl: req.callbackUrl, redirectUrl: req.redirectUrl, ...issued, requestFingerprint: print, answerJson, source: who.source,
      linkId: who.linkId ?? null, eventSequence: 0, createdAt: now, updatedAt: now, expiresAt, paidAt: null,
    };
    const row = q.insert.get(values);
    recordEvent(tx, row, "initiated", now, { amountKobo: req.amount, detail: { source: who.source } });
    return result(req.paymentType, answerJson, false);
  });
}
