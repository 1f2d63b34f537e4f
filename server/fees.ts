// Fee schedules (API.md "Fees"): a percentage, a flat part waived under a threshold, and a cap, in integer kobo with
// the percentage in basis points, rounded half up. BigInt inside, so no product of an amount and a rate can lose a kobo.

export type FeeSchedule = {
  /** Basis points: 150 = 1.5%. */
  percentBasisPoints: number;
  flatKobo: number;
  /** The flat part is charged when the credit is at least this; 0 charges it always. */
  flatWaivedUnderKobo: number;
  /** Null: no cap. */
  capKobo: number | null;
};

/** The sandbox bank's published schedule: 1.5% + ₦100 from ₦2,500.00, capped at ₦2,000.00. */
export const SANDBOX_SCHEDULE: FeeSchedule = { percentBasisPoints: 150, flatKobo: 10_000, flatWaivedUnderKobo: 250_000, capKobo: 200_000 };

/** The fee a schedule charges on one credit of `amountKobo`. */
export function feeFor(schedule: FeeSchedule, amountKobo: number): number {
  const amount = BigInt(amountKobo);
  const percent = (amount * BigInt(schedule.percentBasisPoints) * 2n + 10_000n) / 20_000n;
  const fee = percent + (amountKobo >= schedule.flatWaivedUnderKobo ? BigInt(schedule.flatKobo) : 0n);
  const capped = schedule.capKobo !== null && fee > BigInt(schedule.capKobo) ? BigInt(schedule.capKobo) : fee;
  return Number(capped);
}
