// GET /api/v2/fees/quote (API.md "Fees"): what each provider that would serve a payment charges and what the merchant
// keeps, before initiating. Test mode is the sandbox bank's published schedule; live mode lists, in routing order, the
// connected accounts that would serve the payment and carry an agreed schedule (fee-schedules.ts).
import { z } from "zod";
import { zodFieldErrors, type ApiError, type FieldError } from "../api-error";
import { formatKobo, parseAmount } from "../money";
import { AMOUNT_FORMAT, initiateError, transferRequest, ussdRequest } from "../payments/initiate-schema";
import { bankByCode } from "../providers/banks";
import { accountsServing } from "../providers/registry";
import { agreedSchedules } from "./fee-schedules";
import { feeFor, SANDBOX_SCHEDULE, type FeeSchedule } from "../fees";
import type { Scope } from "../merchants/scope";

const QUOTED = { paymentType: true, amount: true, bankCode: true } as const;

/**
 * A quote is for a payment Owo would initiate: its fields are initiation's, read by the same rules (the channel's
 * amount limits, a bank with USSD, no bankCode with TRANSFER). Other query fields are ignored, as API.md has it.
 */
export const quoteQuery = z.discriminatedUnion("paymentType", [ussdRequest.pick(QUOTED), transferRequest.pick(QUOTED)], {
  error: 'must be "USSD" or "TRANSFER"',
});
export type QuoteQuery = z.output<typeof quoteQuery>;

/** Refused as initiation refuses the same fields: the amount alone S2, the bank alone S8, anything else S5. */
function refusalOf(raw: unknown, error: z.ZodError): ApiError {
  const sent = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const byField = new Map<string, FieldError>();
  for (const e of zodFieldErrors(error, "paymentType")) if (!byField.has(e.field)) byField.set(e.field, e);
  // An unknown paymentType stops zod before the amount: a malformed amount is named beside it all the same.
  if (byField.has("paymentType") && typeof sent.amount === "string" && parseAmount(sent.amount) === null)
    byField.set("amount", { field: "amount", message: AMOUNT_FORMAT });
  // As initiation has it: a field sent as null is missing, not malformed.
  const missing = new Set(["amount", "bankCode"].filter((field) => sent[field] === undefined || sent[field] === null));
  return initiateError([...byField.values()], sent.paymentType, missing);
}

/** Why tRPC's quote input is refused, in the words REST answers the same fields. */
export function quoteRefusal(raw: unknown): ApiError | null {
  const parsed = quoteQuery.safeParse(raw);
  return parsed.success ? null : refusalOf(raw, parsed.error);
}

/** The quote's fields from a REST query, or the refusal initiation would give them. */
export function parseQuoteQuery(raw: unknown): QuoteQuery {
  const parsed = quoteQuery.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw refusalOf(raw, parsed.error);
}

const quote = (provider: string, providerId: string, schedule: FeeSchedule, amount: number) => {
  const fee = feeFor(schedule, amount);
  return { provider, providerId, fee: formatKobo(fee), net: formatKobo(amount - fee) };
};

export async function quoteFees({ merchantId, mode }: Scope, query: QuoteQuery) {
  const { paymentType, bankCode, amount } = query;
  if (mode === "test") return { quotes: [quote("sandbox", "sandbox", SANDBOX_SCHEDULE, amount)] };
  const serving = await accountsServing(merchantId, paymentType, bankCode ? bankByCode(bankCode) : undefined);
  const schedules = await agreedSchedules(
    merchantId,
    serving.map((a) => a.id),
  );
  // An account without an agreed schedule is left out, not guessed at: Owo knows no live provider's fee but by agreement.
  return {
    quotes: serving.flatMap((a) => {
      const schedule = schedules.get(a.id);
      return schedule ? [quote(a.provider, a.id, schedule, amount)] : [];
    }),
  };
}
