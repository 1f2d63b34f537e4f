// Inbound: a signed notice from the sandbox bank, read into Owo's words like any provider's (connector.ts): money it
// moved for an account or dial code it issued (a BankNotice), or a refund it paid back or could not (a refund
// reading). What it moves is decided in server/payments/sandbox-notices.ts.
import { z } from "zod";
import { ApiError, invalidFields, zodFieldErrors } from "../../api-error";
import { parseAmount } from "../../money";
import { settings } from "../../settings";
import type { BankNotice, ProviderPaymentState, RefundReading } from "../connector";
import { sandboxFeeKobo } from "./books";
import { noticeSignatureValid } from "./notice-signature";

const noticeBody = z.object({
  transactionId: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "must be the bank's transaction id"),
  type: z.enum(["credit", "decline"], { error: 'must be "credit" or "decline"' }),
  amount: z.string().refine((a) => parseAmount(a) !== null, "must be naira with at most 2 decimals"),
  accountNumber: z
    .string()
    .regex(/^\d{10}$/)
    .optional(),
  bankCode: z
    .string()
    .regex(/^\d{3}$/)
    .optional(),
  providerReference: z
    .string()
    .regex(/^\d{8}$/)
    .optional(),
  senderName: z.string().max(200).nullish(),
  bankTime: z.iso.datetime().nullish(),
});

const refundNoticeBody = z.object({
  transactionId: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "must be the bank's transaction id"),
  type: z.literal("refund"),
  refundId: z.string().regex(/^sbr_[A-Za-z0-9_]{1,80}$/, "must be the sandbox bank's refund id"),
  state: z.enum(["processed", "failed"], { error: 'must be "processed" or "failed"' }),
});

export type SandboxNotice = z.input<typeof noticeBody> | z.input<typeof refundNoticeBody>;

/** Checks the signature (S1) and the body (S5 naming the field), then says what the bank told. */
export function readSandboxNotice(signature: string | undefined, raw: Buffer, now: number): BankNotice | RefundReading {
  if (!noticeSignatureValid(signature, raw, settings().sandboxBankSecret, now)) {
    throw new ApiError("S1", "Bank notice signature missing, stale or wrong");
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    throw invalidFields([{ field: "body", message: "must be valid JSON" }]);
  }
  if (typeof json === "object" && json !== null && (json as { type?: unknown }).type === "refund") {
    const refund = refundNoticeBody.safeParse(json);
    if (!refund.success) throw invalidFields(zodFieldErrors(refund.error));
    return { kind: "refund", eventId: refund.data.transactionId, refundId: refund.data.refundId, state: refund.data.state };
  }
  const parsed = noticeBody.safeParse(json);
  if (!parsed.success) {
    throw invalidFields(zodFieldErrors(parsed.error));
  }
  const n = parsed.data;
  const target = n.accountNumber
    ? { accountNumber: n.accountNumber }
    : n.bankCode && n.providerReference
      ? { bankCode: n.bankCode, providerReference: n.providerReference }
      : null;
  if (!target) throw invalidFields([{ field: "accountNumber", message: "or bankCode with providerReference is required" }]);
  const amountKobo = parseAmount(n.amount) ?? 0;
  if (n.type === "credit" && amountKobo === 0) {
    throw new ApiError("S5", "Invalid/Missing parameters = amount", [{ field: "amount", message: "must be a positive amount" }]);
  }
  return {
    provider: "sandbox",
    transactionId: n.transactionId,
    kind: n.type,
    amountKobo,
    feeKobo: n.type === "credit" ? sandboxFeeKobo(amountKobo) : 0,
    senderName: n.senderName ?? null,
    bankTime: n.bankTime ? Date.parse(n.bankTime) : null,
    target,
  };
}

/** What Owo held of a payment before a notice: the money it received (paid, or owed back) and the fees charged on it. */
export type Held = { receivedKobo: number; feeKobo: number; currency: string };

/**
 * The bank's record of the payment as this notice leaves it, read as any provider's record is (ProviderPaymentState).
 * The bank tells each credit on its own, not a running total, and Owo's tables are its record (its connector's query
 * reads them): it holds what Owo held before plus this credit, with the fees charged so far plus this credit's (a fee
 * on every credit, API.md "Fees"; the bank's own credits applied in-process, seed and test kit, leave it to the
 * schedule), at the notice's arrival, the time that decides (API.md "Lifecycle").
 */
export function recordAfter(notice: BankNotice, held: Held, arrival: number): ProviderPaymentState {
  if (notice.kind === "decline") return { state: "failed", amountKobo: held.receivedKobo, currency: held.currency, paidAt: arrival };
  return {
    state: "paid",
    amountKobo: held.receivedKobo + notice.amountKobo,
    currency: held.currency,
    paidAt: arrival,
    feeKobo: held.feeKobo + (notice.feeKobo ?? sandboxFeeKobo(notice.amountKobo)),
  };
}
