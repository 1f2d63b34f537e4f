// The sandbox bank's customer side: it pays, under- or over-pays, or declines, by sending Owo a signed notice over HTTP.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Mode } from "../../../db/schema";
import { ApiError, invalidFields, zodFieldErrors } from "../../api-error";
import { formatKobo, parseAmount } from "../../money";
import { nextTransferKobo } from "../../payments/state";
import { findPayment } from "../../payments/lookup";
import { verifyPayment, type VerifyData } from "../../payments/verify";
import { settings } from "../../settings";
import { SIGNATURE_HEADER, signNotice } from "./notice-signature";
import type { SandboxNotice } from "./notices";
import { clock } from "../../clock";
import { recordSentCredit } from "./books";

export const SANDBOX_NOTICE_PATH = "/api/v2/providers/sandbox/notices";

export const simulateInput = z.object({
  outcome: z.enum(["pay", "decline"], { error: 'must be "pay" or "decline"' }),
  amount: z.string().optional(),
});
export type SimulateInput = z.input<typeof simulateInput>;

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
  const notice: SandboxNotice = {
    transactionId: `sbx_${randomBytes(10).toString("hex")}`,
    type: outcome === "pay" ? "credit" : "decline",
    amount: formatKobo(outcome === "pay" ? kobo : 0),
    ...(p.paymentType === "TRANSFER"
      ? { accountNumber: p.accountNumber ?? "" }
      : { bankCode: p.bankCode ?? "", providerReference: p.providerReference ?? "" }),
    senderName: p.fullName,
    bankTime: new Date(clock.now()).toISOString(),
  };
  if (notice.type === "credit")
    await recordSentCredit({
      transactionId: notice.transactionId,
      merchantId,
      paymentReference,
      reference: p.issueReference ?? p.linkingReference,
      amountKobo: kobo,
      sentAt: clock.now(),
    });
  await sendNotice(notice);
  return verifyPayment(merchantId, mode, paymentReference);
}

/** Exactly what a real bank would do: a signed POST to Owo's public inbound endpoint. */
export async function sendNotice(notice: SandboxNotice): Promise<void> {
  const body = JSON.stringify(notice);
  const res = await fetch(settings().publicUrl + SANDBOX_NOTICE_PATH, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signNotice(body, settings().sandboxBankSecret) },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 200) throw new Error(`sandbox bank: Owo answered ${res.status} to a notice: ${await res.text()}`);
}
