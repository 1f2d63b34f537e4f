// Agreed fee schedules (API.md "Fees"): the schedule a merchant agreed with each provider account — percent, flat,
// flatWaivedUnder, cap, sent as decimal strings like money — kept on the account and read by the fee quote. The sandbox
// bank's is its published one, always set (fees.ts).
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { db } from "../../db/client";
import { providerAccounts } from "../../db/schema";
import { invalidFields, zodFieldErrors } from "../api-error";
import { formatKobo, parseAmount } from "../payments/money";
import { ApiError } from "../api-error";
import { accountById, setAgreedFees } from "../providers/accounts";
import type { FeeSchedule } from "./fees";

const naira = (example: string) =>
  z.string().refine((v) => parseAmount(v) !== null, `must be naira with at most 2 decimals, e.g. "${example}"`);

export const feeScheduleInput = z
  .object({
    percent: z
      .string()
      .regex(/^\d{1,3}(\.\d{1,2})?$/, 'must be a percentage with at most 2 decimals, e.g. "1.5"')
      .refine((v) => Number(v) <= 100, "must be at most 100"),
    flat: naira("100").default("0"),
    flatWaivedUnder: naira("2500").default("0"),
    /** Null or left out: no cap. */
    cap: naira("2000").nullish(),
  })
  .strict();

/** "1.5" → 150 basis points, through the decimal text (never a float product). */
function basisPoints(percent: string): number {
  const [whole = "0", fraction = ""] = percent.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

export function parseFeeSchedule(input: unknown): FeeSchedule {
  const parsed = feeScheduleInput.safeParse(input);
  if (!parsed.success) throw invalidFields(zodFieldErrors(parsed.error));
  const s = parsed.data;
  return {
    percentBasisPoints: basisPoints(s.percent),
    flatKobo: parseAmount(s.flat) ?? 0,
    flatWaivedUnderKobo: parseAmount(s.flatWaivedUnder) ?? 0,
    capKobo: s.cap === null || s.cap === undefined ? null : (parseAmount(s.cap) ?? 0),
  };
}

/** A schedule as the wire and the pages show it: `{"percent":"1.50","flat":"100.00","flatWaivedUnder":"2500.00","cap":"2000.00"}`. */
export function feeScheduleView(s: FeeSchedule) {
  return {
    percent: formatKobo(s.percentBasisPoints),
    flat: formatKobo(s.flatKobo),
    flatWaivedUnder: formatKobo(s.flatWaivedUnderKobo),
    cap: s.capKobo === null ? null : formatKobo(s.capKobo),
  };
}
export type FeeScheduleView = ReturnType<typeof feeScheduleView>;

/** Sets the schedule on one of the merchant's own connected accounts; another merchant's is not found. */
export async function setFeeSchedule(merchantId: string, providerId: string, input: unknown): Promise<FeeScheduleView> {
  const schedule = parseFeeSchedule(input);
  await setAgreedFees(merchantId, providerId, schedule);
  return feeScheduleView(schedule);
}

/** The operator CLI's door (`provider fees`): the account names its merchant. */
export async function setFeeScheduleOf(providerId: string, input: unknown) {
  const account = await accountById(providerId);
  if (!account) throw new ApiError("S404", "No such provider account");
  return { providerId, provider: account.provider, fees: await setFeeSchedule(account.merchantId, providerId, input) };
}

/** The agreed schedules of these accounts of the merchant, by account id; accounts without one are left out. */
export async function agreedSchedules(merchantId: string, providerIds: string[]): Promise<Map<string, FeeSchedule>> {
  if (providerIds.length === 0) return new Map();
  const rows = await db()
    .select()
    .from(providerAccounts)
    .where(
      and(
        eq(providerAccounts.merchantId, merchantId),
        inArray(providerAccounts.id, providerIds),
        isNotNull(providerAccounts.feePercentBasisPoints),
      ),
    );
  return new Map(
    rows.map((r): [string, FeeSchedule] => [
      r.id,
      {
        percentBasisPoints: r.feePercentBasisPoints ?? 0,
        flatKobo: r.feeFlatKobo ?? 0,
        flatWaivedUnderKobo: r.feeFlatWaivedUnderKobo ?? 0,
        capKobo: r.feeCapKobo,
      },
    ]),
  );
}
