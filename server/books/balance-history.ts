// The Balances page's picture: what each provider account held unsettled for the merchant at the end of each of the
// last Lagos days, and what was paid out (to the bank or a provider wallet) on each, from the postings. The window is
// read backwards from the kept balances (balance − what moved since), so no day needs a scan of older history, and
// the last point is today's balance exactly.
import { and, eq, like, or, sql } from "drizzle-orm";
import { readSnapshot } from "../../db/client";
import { ledgerBalances, ledgerEntries, ledgerPostings } from "../../db/schema";
import { clock } from "../clock";
import { DAY_MS, HOUR_MS, dayLabel, dayStartOf } from "../payments/calendar";
import { providerNames } from "./balances";
import { postedIn, postedSpan } from "./movements";
import type { Scope } from "../merchants/scope";

export type BalanceDay = {
  /** The Lagos day, YYYY-MM-DD. */
  day: string;
  label: string;
  /** Kobo each provider account held unsettled at the end of the day (today: now), by providerId. */
  unsettled: Record<string, number>;
  /** Kobo paid out that day, to the bank or a provider wallet (a failed payout counts back). */
  paidOut: number;
};

const providerIdOf = (account: string) => /^provider:(.+)$/.exec(account)?.[1] ?? null;
const isPayout = (account: string) => account === "bank" || account.startsWith("provider_wallet:");

export async function balanceHistory(scope: Scope, days = 30, now = clock.now()) {
  const { merchantId, mode } = scope;
  const today = dayStartOf(now);
  const since = today - (days - 1) * DAY_MS;
  const moved = (accounts: ReturnType<typeof or>) => and(postedIn(scope, { from: since }), accounts);
  const bucket = postedSpan(since, DAY_MS);
  return readSnapshot(async (q) => {
    const moves = await q
      .select({ bucket, account: ledgerPostings.account, kobo: sql<number | string>`sum(${ledgerPostings.amountKobo})` })
      .from(ledgerPostings)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
      .where(
        moved(
          or(
            like(ledgerPostings.account, "provider:%"),
            eq(ledgerPostings.account, "bank"),
            like(ledgerPostings.account, "provider_wallet:%"),
          ),
        ),
      )
      .groupBy(bucket, ledgerPostings.account);
    const held = await q
      .select({ account: ledgerBalances.account, kobo: ledgerBalances.balanceKobo })
      .from(ledgerBalances)
      .where(and(eq(ledgerBalances.merchantId, merchantId), eq(ledgerBalances.mode, mode), like(ledgerBalances.account, "provider:%")));

    // Each provider account's balance before the window: what it holds now less everything that moved it since.
    const running = new Map<string, number>();
    for (const h of held) {
      const id = providerIdOf(h.account);
      if (id) running.set(id, Number(h.kobo));
    }
    const byDay = Array.from({ length: days }, () => ({ provider: new Map<string, number>(), paidOut: 0 }));
    for (const m of moves) {
      const kobo = Number(m.kobo);
      // Anything posted later than today (a clock ahead of this one) belongs to today's point.
      const day = byDay[Math.min(m.bucket, days - 1)];
      const id = providerIdOf(m.account);
      if (id) {
        running.set(id, (running.get(id) ?? 0) - kobo);
        day?.provider.set(id, (day.provider.get(id) ?? 0) + kobo);
      } else if (day && isPayout(m.account)) day.paidOut += kobo;
    }

    const ids = [...running.keys()].sort();
    const names = await providerNames(q, merchantId, ids);
    const points: BalanceDay[] = byDay.map((d, i) => {
      const start = since + i * DAY_MS;
      for (const [id, kobo] of d.provider) running.set(id, (running.get(id) ?? 0) + kobo);
      return {
        // Lagos is UTC+1 all year: an hour into the UTC day that holds the Lagos day's start is that day's date.
        day: new Date(start + HOUR_MS).toISOString().slice(0, 10),
        label: dayLabel(start),
        unsettled: Object.fromEntries(ids.map((id) => [id, running.get(id) ?? 0])),
        paidOut: d.paidOut,
      };
    });
    return { providers: ids.map((id) => ({ providerId: id, provider: names.get(id) ?? "unknown" })), days: points };
  });
}
export type BalanceHistory = Awaited<ReturnType<typeof balanceHistory>>;
