// Timers that run beside the HTTP front: the expiry sweeper, the refund follower, the requery loop, the sandbox bank's daily settlement, the providers' settlement poll, the hourly not_settled check, the callback delivery worker and the mailer.
import { startMailerFromSettings } from "./mail/mailer";
import { startRefundFollower } from "./payments/refund-follower";
import { startSweeper } from "./payments/sweeper";
import { startRequeryLoop } from "./payments/requery";
import { settings } from "./settings";
import { startSettlementPoller } from "./settlements/poll";
import { startSandboxSettler } from "./settlements/sandbox";
import { startNotSettledChecker } from "./reconciliation/not-settled";
import { startWorker } from "./webhooks/worker";

export type Background = { stop: () => Promise<void> };

export async function startBackground(): Promise<Background> {
  const stops: (() => Promise<void>)[] = [startSweeper(settings().sweepIntervalSeconds), startRefundFollower(), startRequeryLoop()];
  if (settings().sandboxSettlement) stops.push(startSandboxSettler());
  stops.push(startSettlementPoller(), startNotSettledChecker());
  if (settings().worker) {
    const worker = startWorker();
    stops.push(() => worker.stop());
    const mailer = startMailerFromSettings();
    if (mailer) stops.push(() => mailer.stop());
  }
  return {
    stop: async () => {
      await Promise.all(stops.map((s) => s()));
    },
  };
}
