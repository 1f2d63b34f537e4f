// Owo reads each live provider account's settlements every OWO_SETTLEMENT_POLL_MINUTES for the last 30 days (API.md
// "Settlements"), on the one instance holding the loop: each settlement recorded once, a later reading moving its status
// (booked when paid), and the account's credits checked for not_settled. The provider translates (its connector's
// readSettlements); this core decides. A provider with no settlement API gets its days expected (./expected-days.ts).
// Accounts in their provider's own test mode settle nothing and are not asked.
import { and, asc, eq, isNull } from "drizzle-orm";
import { db, write } from "../../db/client";
import { providerAccounts, settlements } from "../../db/schema";
import { clock } from "../clock";
import { loopTurn } from "../leases";
import { log } from "../logger";
import { DAY_MS } from "../payments/calendar";
import { checkNotSettled } from "../reconciliation/not-settled";
import { repeatEvery } from "../recurring";
import { settings } from "../settings";
import { accountById } from "../providers/accounts";
import type { Connector, ProviderAccount } from "../providers/connector";
import { connectorFor } from "../providers/registry";
import { expectDays } from "./expected-days";
import { ledgerQueue } from "../books/post";
import { recordSettlement } from "./record";
import { settlementsOf, type SettlementSource } from "./sources";
import type { SettlementStatus } from "../providers/settlement-reading";

export const POLL_WINDOW_MS = 30 * DAY_MS;

export type PollOutcome = { accounts: number; read: number; created: number; moved: number; failed: number };

/** One pass over every live account that settles: what was read, newly recorded, moved, and which accounts failed. */
export async function pollSettlements(now = clock.now()): Promise<PollOutcome> {
  const outcome: PollOutcome = { accounts: 0, read: 0, created: 0, moved: 0, failed: 0 };
  const rows = await db()
    .select({ id: providerAccounts.id })
    .from(providerAccounts)
    .where(and(eq(providerAccounts.providerTestMode, false), isNull(providerAccounts.disconnectedAt)))
    .orderBy(asc(providerAccounts.createdAt));
  for (const { id } of rows) {
    const account = await accountById(db(), id);
    if (!account) continue;
    outcome.accounts++;
    const source: SettlementSource = { merchantId: account.merchantId, mode: "live", provider: account.provider, providerAccountId: id };
    const read = connectorFor(account.provider).readSettlements;
    try {
      let whole = true;
      if (read) whole = await recordReadings(account, source, read, now, outcome);
      // No settlement API (SeerBit's): Owo expects the days gone by itself, confirmed later by the bank statement.
      else outcome.created += await write((tx) => expectDays(tx, source, now));
      // The account's credits are judged again only on a whole reading: one that a settlement not read this pass may
      // hold is not. (Recording a new settlement and the hourly check still judge them; with the grace days, a credit
      // held by a settlement read a pass later is closed again then.)
      if (whole) await write((tx) => checkNotSettled(tx, source, now));
      else outcome.failed++;
    } catch (err) {
      outcome.failed++;
      log.warn({ err, providerId: id }, "could not read the provider's settlements; the next pass asks again");
    }
  }
  return outcome;
}

/**
 * Records each of the account's settlements as it is read: a month of them is several calls, each with the provider
 * timeout and the whole read a few of them, and those held as paid are not read again, so an account with more to
 * read than one pass has time for gets further at each. One that cannot be read is left to the next pass without
 * holding back the others; false when any was.
 */
async function recordReadings(
  account: ProviderAccount,
  source: SettlementSource,
  read: NonNullable<Connector["readSettlements"]>,
  now: number,
  outcome: PollOutcome,
): Promise<boolean> {
  const known = await knownSettlements(source);
  const signal = AbortSignal.timeout(settings().providerTimeoutMs * 10);
  let whole = true;
  for await (const r of read(account, now - POLL_WINDOW_MS, known, signal)) {
    if ("unreadable" in r) {
      whole = false;
      log.warn(
        { err: r.err, providerId: account.id, providerSettlementId: r.unreadable },
        "could not read a settlement; the next pass asks again",
      );
      continue;
    }
    // A settlement books its entry: the merchant's books are held from the start rather than learned of at the posting
    // (which would run the whole recording twice).
    const recorded = await write((tx) => recordSettlement(tx, source, r.reading, now), {
      queues: [ledgerQueue(source.merchantId, source.mode)],
    });
    outcome.read++;
    if (recorded.created) outcome.created++;
    else if (recorded.statusChanged) outcome.moved++;
  }
  return whole;
}

/** The status of each settlement Owo holds from this source, by the provider's id. */
async function knownSettlements(source: SettlementSource): Promise<Map<string, SettlementStatus>> {
  const rows = await db()
    .select({ id: settlements.providerSettlementId, status: settlements.status })
    .from(settlements)
    .where(settlementsOf(source));
  return new Map(rows.map((r) => [r.id, r.status]));
}

/** Every OWO_SETTLEMENT_POLL_MINUTES, on the one instance holding the loop. */
export function startSettlementPoller(everyMs = settings().settlementPollMinutes * 60_000): () => Promise<void> {
  const turn = loopTurn("settlement-poll", () => Math.max(10, (3 * everyMs) / 1000));
  const stop = repeatEvery(everyMs, "settlement poll", async () => {
    if (!(await turn.held())) return;
    const outcome = await pollSettlements();
    if (outcome.created + outcome.moved > 0) log.info(outcome, "read the providers' settlements");
  });
  return async () => {
    await stop();
    await turn.release();
  };
}
