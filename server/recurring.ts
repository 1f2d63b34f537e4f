// Background work that recurs: a pass every so often (never two at once), or a polling loop that can be woken.
import { log } from "./logger";

/** Runs `pass` every `everyMs` after the previous one ended; the returned stop waits for a pass in flight. */
export function repeatEvery(everyMs: number, name: string, pass: () => Promise<unknown>): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = pass()
        .then(() => undefined, (err: unknown) => log.error({ err }, `${name} pass failed`))
        .finally(next);
    }, everyMs);
    timer.unref();
  };
  next();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await current;
  };
}

export type PollingLoop = { wake: () => void; stop: () => Promise<void> };

/** Calls `tick` every `pollMs`, or at once when woken (a slot freed); stop ends the loop after the tick in hand. */
export function pollingLoop(pollMs: number, name: string, tick: () => void | Promise<void>): PollingLoop {
  let stopping = false;
  let wake = () => {};
  const loop = (async () => {
    while (!stopping) {
      try {
        await tick();
      } catch (err) {
        log.error({ err }, `${name} pass failed`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  return {
    wake: () => wake(),
    stop: async () => {
      stopping = true;
      wake();
      await loop;
    },
  };
}

/** What a worker has in flight: its work's promise, and whether its lease was handed back. */
export type InFlight = { done: Promise<unknown>; released: boolean };

/**
 * A stopping worker's last wait: its work in flight may finish within `graceMs`; what is still running then is
 * marked released (its outcome no longer recorded) and returned, so the caller hands its leases back.
 */
export async function drainInFlight<T extends InFlight>(inFlight: Map<unknown, T>, graceMs: number): Promise<T[]> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.all([...inFlight.values()].map((e) => e.done)), deadline]);
  clearTimeout(timer);
  const left = [...inFlight.values()];
  for (const e of left) e.released = true;
  return left;
}
