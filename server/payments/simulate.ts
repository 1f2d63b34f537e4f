// The sandbox simulator (API.md "Sandbox"): the caller's own test payment, paid, under- or over-paid or declined by
// the sandbox bank's customer, answered with verify's data once Owo applied the bank's notice.
import { z } from "zod";
import type { Mode } from "../../db/schema";
import { ApiError, invalidFields, zodFieldErrors } from "../api-error";
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

/** Runs API.md's simulate table for the caller's own payment and answers with verify's data once Owo applied it. */
export async function simulatePayment(merchantId: string, mode: Mode, paymentReference: string, body: unknown): Promise<VerifyData> {
  if (mode !== "test") throw new ApiError("S3", "The sandbox bank serves test keys only");
  const p = await findPayment(merchantId, mode, paymentReference);
  if (typeof body !== "object" || body === null || Array.isArray(body)) refuse("body", "must be a JSON object");
  const parsed = simulateInput.strict().safeParse(body);
  if (!parsed.success) throw invalidFields(zodFieldErrors(parsed.error));
  const { outcome, amount } = parsed.data;
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
    merchantId,
    paymentReference,
    reference: p.issueReference ?? p.linkingReference,
  });
  return verifyPayment(merchantId, mode, paymentReference);
}
