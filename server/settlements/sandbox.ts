// The sandbox bank's settlements reach Owo as a provider's would: the bank settles from its own books and Owo
// records what it published, in one transaction (on demand by POST /api/v2/sandbox/settlements, and daily).
import { write } from "../../db/client";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import { loopTurn } from "../leases";
import { log } from "../logger";
import { repeatEvery } from "../recurring";
import { dayStartOf } from "../payments/calendar";
import { merchantsWithUnsettledCredits } from "../providers/sandbox/books";
import { sandboxSettle, type SettlementFaults } from "../providers/sandbox/settlement";
import { ledgerQueue } from "../books/post";
import type { Scope } from "../merchants/scope";
import { recordSettlement } from "./record";
import { getSettlement } from "./view";

/** The sandbox bank serves test mode only (S3): the REST door asks before it judges the body. */
export function assertSandboxMode(scope: Scope): void {
  if (scope.mode !== "test") throw new ApiError("S3", "The sandbox bank serves test keys only");
}

/** Everything the sandbox bank holds for the caller's merchant, today included, settled now with the faults asked for. */
export async function settleSandboxNow(scope: Scope, faults: SettlementFaults) {
  assertSandboxMode(scope);
  const { merchantId, mode } = scope;
  const now = clock.now();
  // The settlement books its entry: the merchant's books are held from the start (db/client.ts joinQueue), not learned
  // of at the posting, which would run the whole settling twice.
  const settlementId = await write(
    async (tx) => {
      const reading = await sandboxSettle(tx, merchantId, { upTo: now, paidAt: now }, faults);
      if (!reading) return null;
      return (await recordSettlement(tx, { merchantId, mode, provider: "sandbox", providerAccountId: null }, reading, now)).settlement.id;
    },
    { queues: [ledgerQueue(merchantId, mode)] },
  );
  if (settlementId === null)
    throw new ApiError("S15", "Nothing to settle: what the sandbox bank holds for you nets ₦0.00 or less, carried forward");
  return getSettlement(scope, settlementId);
}

/** The bank's 00:00 Africa/Lagos run: each merchant's credits of the days before, one settlement each (a net ≤ 0 waits). */
export async function settleSandboxDaily(now = clock.now()): Promise<number> {
  let settled = 0;
  for (const merchantId of await merchantsWithUnsettledCredits(dayStartOf(now) - 1))
    if (await settleSandboxNight(merchantId, now)) settled++;
  return settled;
}

/**
 * One merchant's part of that run: what the bank holds for it from the days before `now`'s Lagos day, paid out now
 * (settledAt and the ledger's entry both say the run's time, so a day's payouts agree on every page); false when that
 * nets ≤ 0 (it waits). The demo seed runs it for each night of its
 * history, so a seeded settlement is exactly the one the nightly job would have made.
 */
export async function settleSandboxNight(merchantId: string, now = clock.now()): Promise<boolean> {
  const upTo = dayStartOf(now) - 1;
  return write(
    async (tx) => {
      const reading = await sandboxSettle(tx, merchantId, { upTo, paidAt: now }, {});
      if (reading) await recordSettlement(tx, { merchantId, mode: "test", provider: "sandbox", providerAccountId: null }, reading, now);
      return reading !== null;
    },
    { queues: [ledgerQueue(merchantId, "test")] },
  );
}

/**
 * Checks every minute, on the one instance holding the loop, for credits of days gone by: the first pass after 00:00
 * Africa/Lagos settles them, and later passes find nothing (today's credits wait for tomorrow), so a restart or a
 * change of holder can never settle a day twice.
 */
export function startSandboxSettler(everyMs = 60_000): () => Promise<void> {
  const turn = loopTurn("sandbox-settlement", () => Math.max(10, (3 * everyMs) / 1000));
  const stop = repeatEvery(everyMs, "sandbox settlement", async () => {
    if (!(await turn.held())) return;
    const settled = await settleSandboxDaily();
    if (settled > 0) log.info({ settled }, "the sandbox bank settled the days before");
  });
  return async () => {
    await stop();
    await turn.release();
  };
}
