// GET /api/v2/fees/quote (API.md "Fees"): what each provider that would serve a payment charges and what the merchant
// keeps, before initiating. Test mode is the sandbox bank's published schedule; live mode lists the providers with an
// agreed schedule, and none carries one yet (per-account schedules are still to come), so it answers none.
import { z } from "zod";
import type { Mode } from "../../db/schema";
import { invalidFields, zodFieldErrors } from "../api-error";
import { formatKobo, parseAmount } from "../payments/money";
import { feeFor, SANDBOX_SCHEDULE } from "./fees";

export const quoteQuery = z
  .object({
    amount: z.string().refine((a) => (parseAmount(a) ?? 0) > 0, 'must be naira with at most 2 decimals, more than 0.00, e.g. "10000.00"'),
    paymentType: z.enum(["USSD", "TRANSFER"], { error: "must be USSD or TRANSFER" }),
    bankCode: z
      .string()
      .regex(/^\d{3,6}$/, "must be a bank code, e.g. 058")
      .optional(),
  })
  .strict();

export function quoteFees(mode: Mode, query: unknown) {
  const parsed = quoteQuery.safeParse(query);
  if (!parsed.success) throw invalidFields(zodFieldErrors(parsed.error));
  const amount = parseAmount(parsed.data.amount) ?? 0;
  if (mode === "live") return { quotes: [] };
  const fee = feeFor(SANDBOX_SCHEDULE, amount);
  return { quotes: [{ provider: "sandbox", providerId: "sandbox", fee: formatKobo(fee), net: formatKobo(amount - fee) }] };
}
