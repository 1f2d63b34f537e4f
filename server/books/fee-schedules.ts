// Agreed fee schedules (API.md "Fees"): the schedule a merchant agreed with each provider account — percent, flat,
// flatWaivedUnder, cap, sent as decimal strings like money — kept on the account, read by the live fee quote and by
// reconciliation's check of each recorded fee. The sandbox bank's is its published one, always set (fees.ts).
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { db, type Tx } from "../../db/client";
import { providerAccounts, type ProviderAccountRow } from "../../db/schema";
import { ApiError, invalidFields, zodFieldErrors } from "../api-error";
import { formatKobo, parseAmount } from "../money";
import { accountById, setAgreedFees } from "../providers/accounts";
import type { FeeSchedule } from "../fees";

const naira = (example: string) =>
  z.string().refine((v) => parseAmount(v) !== null, `must be naira with at most 2 decimals, e.g. "${example}"`);

export const feeScheduleInput = z
  .object({
    percent: z
      .string({ error: 'is required: a percentage with at most 2 decimals, e.g. "1.5"' })
      .refine(
        (v) => /^\d{1,3}(\.\d{1,2})?$/.test(v) && basisPoints(v) <= 10_000,
        'must be a percentage from 0 to 100 with at most 2 decimals, e.g. "1.5"',
      ),
    flat: naira("100").default("0"),
    flatWaivedUnder: naira("2500").default("0"),
    /** Null or left out: no cap. */
    cap: naira("2000").nullish(),
  })
  .strict();

/** "1.5" → 150 basis points, from the decimal text's digits (never a float product). */
function basisPoints(percent: string): number {
  const [whole = "0", fraction = ""] = percent.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** The shape the dashboard sends (tRPC types it); the rules above judge it, so every door names the same fields. */
export const feeScheduleShape = z.object({
  percent: z.string().max(20),
  flat: z.string().max(20).optional(),
  flatWaivedUnder: z.string().max(20).optional(),
  cap: z.string().max(20).nullish(),
});

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
    // Basis points are hundredths of a percent, as kobo are of a naira: the same two-decimal text.
    percent: formatKobo(s.percentBasisPoints),
    flat: formatKobo(s.flatKobo),
    flatWaivedUnder: formatKobo(s.flatWaivedUnderKobo),
    cap: s.capKobo === null ? null : formatKobo(s.capKobo),
  };
}
export type FeeScheduleView = ReturnType<typeof feeScheduleView>;

/** Sets (or, with null, removes) the schedule on one of the merchant's own connected accounts; another merchant's is not found. */
export async function setFeeSchedule(merchantId: string, providerId: string, input: unknown): Promise<FeeScheduleView | null> {
  const schedule = input === null ? null : parseFeeSchedule(input);
  await setAgreedFees(merchantId, providerId, schedule);
  return schedule === null ? null : feeScheduleView(schedule);
}

/** The operator CLI's door (`provider fees`): the account names its merchant. */
export async function setFeeScheduleOf(providerId: string, input: unknown) {
  const schedule = parseFeeSchedule(input);
  const account = await accountById(db(), providerId);
  if (!account) throw new ApiError("S404", `No provider account ${providerId}`);
  await setAgreedFees(account.merchantId, providerId, schedule);
  return { providerId, provider: account.provider, fees: feeScheduleView(schedule) };
}

/** The schedule an account's row carries; null when the merchant agreed none (percent unset). */
export function scheduleOfRow(r: ProviderAccountRow): FeeSchedule | null {
  if (r.feePercentBasisPoints === null) return null;
  return {
    percentBasisPoints: r.feePercentBasisPoints,
    flatKobo: r.feeFlatKobo ?? 0,
    flatWaivedUnderKobo: r.feeFlatWaivedUnderKobo ?? 0,
    capKobo: r.feeCapKobo,
  };
}

/** The agreed schedules of these accounts of the merchant, by account id; accounts without one are left out. */
export async function agreedSchedules(merchantId: string, providerIds: string[], tx?: Tx): Promise<Map<string, FeeSchedule>> {
  if (providerIds.length === 0) return new Map();
  const rows = await (tx ?? db())
    .select()
    .from(providerAccounts)
    .where(
      and(
        eq(providerAccounts.merchantId, merchantId),
        inArray(providerAccounts.id, providerIds),
        isNotNull(providerAccounts.feePercentBasisPoints),
      ),
    );
  const found = new Map<string, FeeSchedule>();
  for (const r of rows) {
    const schedule = scheduleOfRow(r);
    if (schedule) found.set(r.id, schedule);
  }
  return found;
}
