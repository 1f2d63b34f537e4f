// Timers that run beside the HTTP front: the expiry sweeper and the callback delivery worker.
import { startSweeper } from "./payments/sweeper";
import { settings } from "./settings";
import { startWorker } from "./webhooks/worker";

export type Background = { stop: () => Promise<void> };

export async function startBackground(): Promise<Background> {
  const stops: (() => Promise<void>)[] = [startSweeper(settings().sweepIntervalSeconds)];
  if (settings().worker) {
    const worker = startWorker();
    stops.push(() => worker.stop());
  }
  return {
    stop: async () => {
      await Promise.all(stops.map((s) => s()));
    },
  };
}
