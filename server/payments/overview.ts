// The overview's figures: the money as the books have it (gross, fees, refunds, net: server/books/net-volume.ts), gross
// split by channel, and the payments created in each period counted by outcome with their success rate.
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { db } from "../../db/client";
import { payments, type Mode, type PaymentStatus } from "../../db/schema";
import { DAY_MS, HOUR_MS, dayLabel, dayStartOf, hourLabel } from "./calendar";
import { PAYMENT_TYPES, type PaymentType } from "./initiate-schema";
import { formatKobo } from "../money";
import { clock } from "../clock";
import { netVolume, totalOf, type NetVolume } from "../books/net-volume";
import type { Scope } from "../merchants/scope";

export const OVERVIEW_PERIODS = ["today", "7d", "30d"] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];
const PERIOD_DAYS: Record<OverviewPeriod, number> = { today: 1, "7d": 7, "30d": 30 };

type Tally = { count: number; successful: number; failed: number; expired: number; cancelled: number; open: number };

const emptyTally = (): Tally => ({ count: 0, successful: 0, failed: 0, expired: 0, cancelled: 0, open: 0 });

function add(t: Tally, status: PaymentStatus, count: number): void {
  t.count += count;
  if (status === "SUCCESSFUL") t.successful += count;
  else if (status === "FAILED") t.failed += count;
  else if (status === "EXPIRED") t.expired += count;
  else if (status === "CANCELLED") t.cancelled += count;
  else t.open += count;
}

/**
 * Success rate over payments that have ended: one still waiting for its customer is neither success nor failure,
 * and neither is one the merchant cancelled (its own decision, not the customer's). Volume is money received as gross
 * counts it (by when it arrived, part payments and overpayments included, late money not), so the channels' volumes add
 * up to gross; the counts are of the payments created in the period.
 */
function figures(t: Tally, volumeKobo: number) {
  const ended = t.successful + t.failed + t.expired;
  return { ...t, volumeKobo, volume: formatKobo(volumeKobo), successRate: ended === 0 ? null : t.successful / ended };
}
export type Figures = Awaited<ReturnType<typeof figures>>;

/** channel: null for a standard-checkout payment whose customer has not chosen yet. */
type Bucketed = { bucket: number; channel: PaymentType | null; status: PaymentStatus; count: number };

/** One grouped scan of the payments_list index range: counts per time bucket, channel and status. */
async function bucketed(merchantId: string, mode: Mode, since: number, until: number, size: number): Promise<Bucketed[]> {
  // Whole numbers written into the SQL, not bound: PostgreSQL matches GROUP BY to the select list by text, and two
  // bindings of one value are two parameters to it. better-sqlite3 would also bind them as REAL.
  const bucket =
    sql<number>`((${payments.createdAt} - ${sql.raw(String(Math.trunc(since)))}) / ${sql.raw(String(Math.trunc(size)))})`.mapWith(Number);
  return db()
    .select({
      bucket,
      channel: payments.paymentType,
      status: payments.status,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(payments)
    .where(and(eq(payments.merchantId, merchantId), eq(payments.mode, mode), gte(payments.createdAt, since), lt(payments.createdAt, until)))
    .groupBy(bucket, payments.paymentType, payments.status);
}

type SeriesPoint = {
  start: string;
  label: string;
  /** Kobo received on each channel in this bucket, as gross counts it: the two add up to `gross`. */
  USSD: number;
  TRANSFER: number;
  successful: number;
  unsuccessful: number;
  open: number;
  /** Kobo the books moved in this bucket: sales less fees, refunds and deductions. */
  net: number;
  gross: number;
};

/** Chart points: gross and net volume, gross by channel, and payments by outcome, for each bucket (empty ones included). */
function series(
  rows: Bucketed[],
  money: NetVolume[],
  since: number,
  size: number,
  buckets: number,
  label: (ms: number) => string,
): SeriesPoint[] {
  const points = Array.from({ length: buckets }, (_, i): SeriesPoint => {
    const start = since + i * size;
    const moved = money[i];
    return {
      start: new Date(start).toISOString(),
      label: label(start),
      USSD: moved?.grossByChannel.USSD ?? 0,
      TRANSFER: moved?.grossByChannel.TRANSFER ?? 0,
      successful: 0,
      unsuccessful: 0,
      open: 0,
      net: moved?.netKobo ?? 0,
      gross: moved?.grossKobo ?? 0,
    };
  });
  for (const r of rows) {
    const point = points[r.bucket];
    if (!point) continue;
    if (r.status === "SUCCESSFUL") point.successful += r.count;
    else if (r.status === "FAILED" || r.status === "EXPIRED") point.unsuccessful += r.count;
    else if (r.status !== "CANCELLED") point.open += r.count;
  }
  return points;
}

/** A period's money as the page shows it. */
function moneyView(m: NetVolume) {
  return {
    gross: formatKobo(m.grossKobo),
    fees: formatKobo(m.feesKobo),
    refunds: formatKobo(m.refundsKobo),
    adjustments: formatKobo(m.adjustmentsKobo),
    late: formatKobo(m.lateKobo),
    latePaidBack: formatKobo(m.latePaidBackKobo),
    net: formatKobo(m.netKobo),
  };
}
export type OverviewMoney = ReturnType<typeof moneyView>;

/** Today, the last 7 and the last 30 Lagos days (today included), with hourly points for today and daily ones otherwise. */
export async function paymentOverview({ merchantId, mode }: Scope, now = clock.now()) {
  const today = dayStartOf(now);
  const since = today - (PERIOD_DAYS["30d"] - 1) * DAY_MS;
  const daily = await bucketed(merchantId, mode, since, today + DAY_MS, DAY_MS);
  const hourly = await bucketed(merchantId, mode, today, today + DAY_MS, HOUR_MS);
  const dailyMoney = await netVolume({ merchantId, mode }, since, DAY_MS, PERIOD_DAYS["30d"]);
  const hourlyMoney = await netVolume({ merchantId, mode }, today, HOUR_MS, 24);

  const periods = Object.fromEntries(
    OVERVIEW_PERIODS.map((period) => {
      const firstBucket = PERIOD_DAYS["30d"] - PERIOD_DAYS[period];
      const total = emptyTally();
      const byChannel = { USSD: emptyTally(), TRANSFER: emptyTally() };
      for (const r of daily) {
        if (r.bucket < firstBucket) continue;
        add(total, r.status, r.count);
        if (r.channel) add(byChannel[r.channel], r.status, r.count);
      }
      const moved = totalOf(dailyMoney.slice(firstBucket));
      const chart =
        period === "today"
          ? series(hourly, hourlyMoney, today, HOUR_MS, 24, hourLabel)
          : series(
              daily.filter((r) => r.bucket >= firstBucket).map((r) => ({ ...r, bucket: r.bucket - firstBucket })),
              dailyMoney.slice(firstBucket),
              since + firstBucket * DAY_MS,
              DAY_MS,
              PERIOD_DAYS[period],
              dayLabel,
            );
      const channels = Object.fromEntries(PAYMENT_TYPES.map((c) => [c, figures(byChannel[c], moved.grossByChannel[c])])) as Record<
        PaymentType,
        Figures
      >;
      return [
        period,
        {
          since: new Date(since + firstBucket * DAY_MS).toISOString(),
          totals: figures(total, moved.grossKobo),
          money: moneyView(moved),
          byChannel: channels,
          chart,
        },
      ];
    }),
  ) as Record<
    OverviewPeriod,
    { since: string; totals: Figures; money: OverviewMoney; byChannel: Record<PaymentType, Figures>; chart: SeriesPoint[] }
  >;

  return { asOf: new Date(now).toISOString(), periods };
}
export type PaymentOverview = Awaited<ReturnType<typeof paymentOverview>>;
