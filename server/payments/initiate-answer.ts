// What an initiation answers (API.md "Initiate"): the `payments` object per channel, its keys in API.md's order and so
// in the answer's bytes, written once when the payment is recorded and replayed byte for byte.
import type { PaymentRow } from "../../db/schema";
import { formatKobo } from "../money";
import { settings } from "../settings";
import type { PaymentType } from "./initiate-schema";

export type Head = { paymentReference: string; linkingReference: string };
export type Tail = { amount: string; expiresAt: string; checkoutUrl: string };

/** API.md's USSD `payments` object, keys in its order (and so in the answer's bytes). */
export function ussdPayments(head: Head, code: { providerReference: string; dialCode: string }, tail: Tail) {
  return { ...head, providerreference: code.providerReference, ussdDailCode: code.dialCode, ...tail };
}

/** API.md's TRANSFER `payments` object; `wallet` is the account number again, as merchants already read it. */
export function transferPayments(head: Head, account: { accountNumber: string; bankName: string }, walletName: string, tail: Tail) {
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

export function resultOf(paymentType: PaymentType, paymentsJson: string, replayed: boolean): InitiateResult {
  // Owo wrote these bytes itself with the builders above, so the channel tells their shape.
  return paymentType === "USSD"
    ? { paymentType, paymentsJson, replayed, payments: JSON.parse(paymentsJson) as UssdPayments }
    : { paymentType, paymentsJson, replayed, payments: JSON.parse(paymentsJson) as TransferPayments };
}

/** The envelope `data` head per channel; the REST door wraps the stored `payments` bytes in it. */
export function answerHead(paymentType: PaymentType): { code: string | null; message: string | null } {
  return paymentType === "USSD" ? { code: null, message: null } : { code: "00", message: "ACCOUNT OPENED SUCCESSFULLY" };
}

export function checkoutUrl(linkingReference: string): string {
  return `${settings().publicUrl}/checkout/${linkingReference}`;
}

/** Step 3's answer: API.md's `payments` object for the issued row, written in the recording transaction. */
export function answerFor(p: Omit<PaymentRow, "id">): string {
  const head = { paymentReference: p.paymentReference, linkingReference: p.linkingReference };
  const tail = {
    amount: formatKobo(p.amountKobo),
    expiresAt: new Date(p.expiresAt).toISOString(),
    checkoutUrl: checkoutUrl(p.linkingReference),
  };
  if (p.paymentType === "USSD")
    return JSON.stringify(ussdPayments(head, { providerReference: p.providerReference ?? "", dialCode: p.dialCode ?? "" }, tail));
  return JSON.stringify(
    transferPayments(head, { accountNumber: p.accountNumber ?? "", bankName: p.accountBankName ?? "" }, p.walletName ?? "", tail),
  );
}
