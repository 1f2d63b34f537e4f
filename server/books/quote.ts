// GET /api/v2/fees/quote (API.md "Fees"): what each provider that would serve a payment charges and what the merchant
// keeps, before initiating. Test mode is the sandbox bank's published schedule; live mode lists, in routing order, the
// connected accounts that would serve the payment and carry an agreed schedule (fee-schedules.ts).
import { z } from "zod";
import { formatKobo, parseAmount } from "../money";
import { bankByCode } from "../providers/banks";
import { accountsServing } from "../providers/registry";
import { agreedSchedules } from "./fee-schedules";
import { feeFor, SANDBOX_SCHEDULE, type FeeSchedule } from "../fees";
import type { Scope } from "../merchants/scope";

export const quoteQuery = z
  .object({
    amount: z.string().refine((a) => (parseAmount(a) ?? 0) > 0, 'must be naira with at most 2 decimals, more than 0.00, e.g. "10000.00"'),
    paymentType: z.enum(["USSD", "TRANSFER"], { error: "must be USSD or TRANSFER" }),
    bankCode: z
      .string()
      .regex(/^\d{3,6}$/, "must be a bank code, e.g. 058")
      .optional(),
  })
  .strict()
  .refine((q) => q.paymentType !== "USSD" || q.bankCode !== undefined, {
    path: ["bankCode"],
    message: "is required for USSD: the customer's bank decides who serves it, e.g. 058",
  });
export type QuoteQuery = z.output<typeof quoteQuery>;

const quote = (provider: string, providerId: string, schedule: FeeSchedule, amount: number) => {
  const fee = feeFor(schedule, amount);
  return { provider, providerId, fee: formatKobo(fee), net: formatKobo(amount - fee) };
};

export async function quoteFees({ merchantId, mode }: Scope, query: QuoteQuery) {
  const { paymentType, bankCode } = query;
  const amount = parseAmount(query.amount) ?? 0;
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
