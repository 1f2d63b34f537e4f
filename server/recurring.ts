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
        .then(
          () => undefined,
          (err: unknown) => log.error({ err }, `${name} pass failed`),
        )
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

/**
 * Calls `tick` every `pollMs`, or at once when woken (a slot freed, new work made); stop ends the loop after the tick in
 * hand. A wake while a tick runs is kept, and the next tick follows at once: slots freed meanwhile are not left idle
 * until the timer (bench/README.md "Callbacks under load").
 */
export function pollingLoop(pollMs: number, name: string, tick: () => void | Promise<void>): PollingLoop {
  let stopping = false;
  let woken = false;
  let wake = () => {
    woken = true;
  };
  const loop = (async () => {
    while (!stopping) {
      woken = false;
      try {
        await tick();
      } catch (err) {
        log.error({ err }, `${name} pass failed`);
      }
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => {
        woken = true;
      };
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

export type Heartbeat = {
  /** Resolves once the renewal under way, if any, has ended. */
  settled: () => Promise<void>;
  /** No more renewals; resolves once the one under way has ended. */
  stop: () => Promise<void>;
};

/**
 * Renews the leases of work in flight every `everyMs`, never two renewals at once. Work that has ended marks itself so
 * that no later renewal takes it in, then awaits `settled()` before recording its outcome under its lease: a renewal
 * under way may be moving that lease, and an outcome recorded under the lease it replaced finds the work lost, leaving
 * it to be done again once the new lease runs out. (On PostgreSQL a renewal is network I/O, so an attempt often ends
 * while one is under way; that is what sent callbacks twice there.)
 */
export function leaseHeartbeat(everyMs: number, name: string, renew: () => Promise<void>): Heartbeat {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = renew()
      .catch((err: unknown) => log.error({ err }, `could not renew ${name} leases`))
      .finally(() => {
        running = null;
      });
  }, everyMs);
  return {
    settled: async () => {
      await running;
    },
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
