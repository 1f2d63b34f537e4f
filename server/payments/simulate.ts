// The sandbox simulator (API.md "Sandbox"): the caller's own test payment, paid, under- or over-paid or declined by
// the sandbox bank's customer, answered with verify's data once Owo applied the bank's notice.
import { z } from "zod";
import type { PaymentRow } from "../../db/schema";
import { ApiError, invalidFields } from "../api-error";
import type { Scope } from "../merchants/scope";
import { parseAmount } from "../money";
import { moveCustomerMoney } from "../providers/sandbox/bank";
import { findPayment } from "./lookup";
import { nextTransferKobo } from "./state";
import { verifyPayment, type VerifyData } from "./verify";

export const simulateInput = z.object({
  outcome: z.enum(["pay", "decline"], { error: 'must be "pay" or "decline"' }),
  amount: z.string().optional(),
});

function refuse(field: string, message: string): never {
  throw invalidFields([{ field, message }]);
}

export type SimulateInput = z.output<typeof simulateInput>;

/** The payment the sandbox bank may move money for: the caller's own (404), in test mode only (S3). */
export async function sandboxPayment(scope: Scope, paymentReference: string): Promise<PaymentRow> {
  if (scope.mode !== "test") throw new ApiError("S3", "The sandbox bank serves test keys only");
  return findPayment(scope, paymentReference);
}

/** Runs API.md's simulate table for the caller's own payment and answers with verify's data once Owo applied it. */
export async function simulatePayment(scope: Scope, paymentReference: string, input: SimulateInput): Promise<VerifyData> {
  const p = await sandboxPayment(scope, paymentReference);
  const { outcome, amount } = input;
  let kobo = p.amountKobo;
  if (p.paymentType === null)
    refuse("paymentReference", "is a standard-checkout payment whose customer has not chosen USSD or TRANSFER yet");
  if (p.paymentType === "USSD") {
    if (amount !== undefined) refuse("amount", "is not allowed for USSD: the customer is debited the exact amount");
  } else {
    if (outcome === "decline") refuse("outcome", 'must be "pay" for TRANSFER: a transfer is not declined');
    kobo =
      amount === undefined
        ? nextTransferKobo(p)
        : (parseAmount(amount) ?? refuse("amount", 'must be naira with at most 2 decimals, e.g. "700.00"'));
    if (kobo <= 0) refuse("amount", "must be more than 0.00");
  }
  await moveCustomerMoney({
    outcome,
    amountKobo: kobo,
    target:
      p.paymentType === "TRANSFER"
        ? { accountNumber: p.accountNumber ?? "" }
        : { bankCode: p.bankCode ?? "", providerReference: p.providerReference ?? "" },
    senderName: p.fullName,
    merchantId: scope.merchantId,
    paymentReference,
    reference: p.issueReference ?? p.linkingReference,
  });
  return verifyPayment(scope, paymentReference);
}
