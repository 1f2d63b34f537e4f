// Inbound: a signed notice from the sandbox bank, checked and handed to the state machine (money) or to the refund
// follower (a refund it paid back or could not).
import { z } from "zod";
import { ApiError, invalidFields, zodFieldErrors } from "../../api-error";
import { applyBankNotice, type NoticeOutcome } from "../../payments/lifecycle";
import { parseAmount } from "../../money";
import { refundNoticed } from "../../payments/refund-follower";
import { settings } from "../../settings";
import { noticeSignatureValid } from "./notice-signature";
import { clock } from "../../clock";

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

/** What became of a notice: the payment it moved (money), or the refund it was about. */
export type SandboxNoticeOutcome = { message: string; payment: NoticeOutcome["payment"] | null };

export async function receiveSandboxNotice(signature: string | undefined, raw: Buffer, now = clock.now()): Promise<SandboxNoticeOutcome> {
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
    const { result } = await refundNoticed({ provider: "sandbox", providerAccountId: null }, refund.data);
    return {
      message: {
        applied: "Refund notice applied",
        duplicate: "Duplicate notice; applied before",
        no_refund: "No such refund; recorded",
        rejected: "Notice does not match the bank's record; nothing moved",
      }[result],
      payment: null,
    };
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
  const outcome = await applyBankNotice(
    {
      provider: "sandbox",
      transactionId: n.transactionId,
      kind: n.type,
      amountKobo: parseAmount(n.amount) ?? 0,
      senderName: n.senderName ?? null,
      bankTime: n.bankTime ? Date.parse(n.bankTime) : null,
      target,
    },
    now,
  );
  return { message: outcome.applied ? "Notice applied" : "Duplicate notice; applied before", payment: outcome.payment };
}
