// Inbound: a signed notice from the sandbox bank, checked and handed to the state machine.
import { z } from "zod";
import { ApiError, invalidFields, zodFieldErrors } from "../../api-error";
import { applyBankNotice, type NoticeOutcome } from "../../payments/lifecycle";
import { parseAmount } from "../../payments/money";
import { settings } from "../../settings";
import { noticeSignatureValid } from "./notice-signature";
import { clock } from "../../clock";

const noticeBody = z.object({
  transactionId: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "must be the bank's transaction id"),
  type: z.enum(["credit", "decline"], { error: 'must be "credit" or "decline"' }),
  amount: z.string().refine((a) => parseAmount(a) !== null, "must be naira with at most 2 decimals"),
  accountNumber: z.string().regex(/^\d{10}$/).optional(),
  bankCode: z.string().regex(/^\d{3}$/).optional(),
  providerReference: z.string().regex(/^\d{8}$/).optional(),
  senderName: z.string().max(200).nullish(),
  bankTime: z.iso.datetime().nullish(),
});

export type SandboxNotice = z.input<typeof noticeBody>;

export function receiveSandboxNotice(signature: string | undefined, raw: Buffer, now = clock.now()): NoticeOutcome {
  if (!noticeSignatureValid(signature, raw, settings().sandboxBankSecret, now)) {
    throw new ApiError("S1", "Bank notice signature missing, stale or wrong");
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    throw invalidFields([{ field: "body", message: "must be valid JSON" }]);
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
  return applyBankNotice(
    {
      provider: "sandbox", transactionId: n.transactionId, kind: n.type, amountKobo: parseAmount(n.amount) ?? 0,
      senderName: n.senderName ?? null, bankTime: n.bankTime ? Date.parse(n.bankTime) : null, target,
    },
    now,
  );
}
