// Payments opened and credited in this process through the payments core, for tests that need events to flow.
import { randomBytes } from "node:crypto";
import { applyBankNotice } from "../payments/sandbox-notices";
import { initiatePayment } from "../payments/initiate";
import { parseInitiateRequest } from "../payments/initiate-schema";
import { findPayment } from "../payments/lookup";
import { formatKobo } from "../money";
import type { NoticeTarget } from "../providers/connector";
import { sampleOrder } from "./initiation";

let references = 0;

/** A TRANSFER payment (₦1,500.00 unless told) whose callbacks go to `callbackUrl`, opened at `at` (now unless told). */
export async function openTransfer(
  merchantId: string,
  callbackUrl: string,
  opts: { amount?: string; at?: number } = {},
): Promise<{ paymentReference: string; accountNumber: string }> {
  const paymentReference = `wh-${process.pid}-${Date.now().toString(36)}-${++references}`;
  const request = parseInitiateRequest(
    { ...sampleOrder, amount: opts.amount ?? "1500", paymentReference, callbackUrl, paymentType: "TRANSFER" },
    { publicKey: false },
  );
  const answer = JSON.parse((await initiatePayment(request, { merchantId, mode: "test", source: "rest", now: opts.at })).paymentsJson) as {
    accountNumber: string;
  };
  return { paymentReference, accountNumber: answer.accountNumber };
}

/** The sandbox bank credits the account: the payment's next event (successful, or refund_due once closed). */
export async function credit(accountNumber: string, amountKobo = 1500_00, at?: number): Promise<void> {
  await applyBankNotice(
    {
      provider: "sandbox",
      transactionId: `txn_${randomBytes(8).toString("hex")}`,
      kind: "credit",
      amountKobo,
      target: { accountNumber },
    },
    at,
  );
}

/**
 * A USSD or TRANSFER payment of `amountKobo` opened at `now` as the tRPC door opens one (no public key), for the
 * property tests' models: where the sandbox bank sends its money, the dial code's bank and reference or the account.
 */
export async function openPayment(
  merchantId: string,
  paymentType: "USSD" | "TRANSFER",
  amountKobo: number,
  paymentReference: string,
  now: number,
): Promise<NoticeTarget> {
  const request = parseInitiateRequest(
    {
      ...sampleOrder,
      amount: formatKobo(amountKobo),
      paymentReference,
      paymentType,
      ...(paymentType === "USSD" ? { bankCode: "057" } : {}),
    },
    { publicKey: false },
  );
  await initiatePayment(request, { merchantId, mode: "test", source: "trpc", now });
  const p = await findPayment({ merchantId, mode: "test" }, paymentReference);
  return paymentType === "USSD"
    ? { bankCode: p.bankCode ?? "", providerReference: p.providerReference ?? "" }
    : { accountNumber: p.accountNumber ?? "" };
}
