// What a merchant sends to create a payment link: defined once for the tRPC input and the dashboard form.
import { z } from "zod";
import { AMOUNT_LIMITS, commonFields, PAYMENT_TYPES, type PaymentType } from "../payments/initiate-schema";
import { formatKobo, parseAmount, type Kobo } from "../money";

const AMOUNT_FORMAT = 'must be naira with at most 2 decimals, e.g. "1500.00"';

/** Forms send "" for a field left empty; that means "not given". */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

const amountText = z.string({ error: AMOUNT_FORMAT });

/** The amounts every chosen channel accepts (a fixed amount must suit them all). */
export function commonRange(channels: readonly PaymentType[]): { min: Kobo; max: Kobo } {
  const limits = channels.map((c) => AMOUNT_LIMITS[c]);
  return { min: Math.max(...limits.map((l) => l.min)), max: Math.min(...limits.map((l) => l.max)) };
}

/** The amounts at least one chosen channel accepts (bounds for a customer-entered amount). */
export function widestRange(channels: readonly PaymentType[]): { min: Kobo; max: Kobo } {
  const limits = channels.map((c) => AMOUNT_LIMITS[c]);
  return { min: Math.min(...limits.map((l) => l.min)), max: Math.max(...limits.map((l) => l.max)) };
}

export const createLinkInput = z
  .object({
    title: z
      .string({ error: "must be 1 to 100 characters" })
      .trim()
      .min(1, "must be 1 to 100 characters")
      .max(100, "must be at most 100 characters"),
    description: optional(z.string().trim().max(500, "must be at most 500 characters")),
    /** Set: the customer pays exactly this. Absent: the customer enters an amount within min/max. */
    amount: optional(amountText),
    minAmount: optional(amountText),
    maxAmount: optional(amountText),
    channels: z
      .array(z.enum(PAYMENT_TYPES, { error: 'must be "USSD" or "TRANSFER"' }), { error: "must list USSD, TRANSFER or both" })
      .min(1, "must allow at least one of USSD and TRANSFER")
      .transform((list) => PAYMENT_TYPES.filter((c) => list.includes(c))),
    singleUse: z.boolean().default(false),
    callbackUrl: optional(commonFields.shape.callbackUrl),
    redirectUrl: optional(commonFields.shape.redirectUrl),
  })
  .transform((input, ctx) => {
    const kobo = (field: "amount" | "minAmount" | "maxAmount"): Kobo | null => {
      const text = input[field];
      if (text === undefined) return null;
      const value = parseAmount(text);
      if (value === null) ctx.addIssue({ code: "custom", path: [field], message: AMOUNT_FORMAT });
      return value;
    };
    const amountKobo = kobo("amount");
    let minKobo = kobo("minAmount");
    let maxKobo = kobo("maxAmount");
    if (input.amount !== undefined) {
      const { min, max } = commonRange(input.channels);
      if (amountKobo !== null && (amountKobo < min || amountKobo > max)) {
        ctx.addIssue({
          code: "custom",
          path: ["amount"],
          message: `must be from ${formatKobo(min)} to ${formatKobo(max)} for ${input.channels.join(" and ")}`,
        });
      }
      if (input.minAmount !== undefined || input.maxAmount !== undefined) {
        ctx.addIssue({ code: "custom", path: ["minAmount"], message: "must be left empty when the amount is fixed" });
      }
    } else {
      const { min, max } = widestRange(input.channels);
      minKobo ??= min;
      maxKobo ??= max;
      const range = `must be from ${formatKobo(min)} to ${formatKobo(max)}`;
      if (minKobo < min || minKobo > max) ctx.addIssue({ code: "custom", path: ["minAmount"], message: range });
      if (maxKobo < min || maxKobo > max) ctx.addIssue({ code: "custom", path: ["maxAmount"], message: range });
      else if (maxKobo < minKobo) ctx.addIssue({ code: "custom", path: ["maxAmount"], message: "must not be below the minimum amount" });
    }
    return {
      title: input.title,
      description: input.description ?? "",
      amountKobo,
      minKobo: amountKobo === null ? minKobo : null,
      maxKobo: amountKobo === null ? maxKobo : null,
      channels: input.channels,
      singleUse: input.singleUse,
      callbackUrl: input.callbackUrl ?? null,
      redirectUrl: input.redirectUrl ?? null,
    };
  });

export type CreateLinkInput = z.input<typeof createLinkInput>;
export type NewLink = z.output<typeof createLinkInput>;

/** The merchant's default URLs for new links; empty clears a default. */
export const linkDefaultsInput = z.object({
  defaultCallbackUrl: optional(commonFields.shape.callbackUrl),
  defaultRedirectUrl: optional(commonFields.shape.redirectUrl),
});
