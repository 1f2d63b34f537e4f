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
export function pollingLoop(pollMs: number, name: string, tick: () => void): PollingLoop {
  let stopping = false;
  let wake = () => {};
  const loop = (async () => {
    while (!stopping) {
      try {
        tick();
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
