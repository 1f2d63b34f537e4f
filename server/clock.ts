// The one source of "now" for every rule that reads time (expiry, tokens, secrets' grace, leases, backoff, sweeps),
// so tests move time instead of sleeping on the wall clock. Production always reads the wall clock:
// moving is refused under NODE_ENV=production, and the file hook is read only under NODE_ENV=test.
import { readFileSync } from "node:fs";
import { environment } from "../environment";

const holder = globalThis as unknown as { __owoClockOffsetMs?: number };

/**
 * A process started by a test (the server, the worker, the CLI) follows the test's moves through this file: it holds
 * the offset in milliseconds, re-read on every call. Honoured only when NODE_ENV is exactly "test".
 */
const offsetFile = environment("nodeEnv") === "test" ? environment("testClockFile") : undefined;

function fileOffset(file: string): number {
  try {
    const offset = Number(readFileSync(file, "utf8").trim());
    return Number.isSafeInteger(offset) ? offset : 0;
  } catch {
    return 0; // no move yet
  }
}

export const clock = {
  /** Milliseconds since the epoch, as `Date.now()`, plus whatever a test has moved. */
  now(): number {
    return Date.now() + clock.movedMs();
  },
  /** How far a test has moved this process's time (0 in production): for a rule that reads the database's clock. */
  movedMs(): number {
    return (holder.__owoClockOffsetMs ?? 0) + (offsetFile === undefined ? 0 : fileOffset(offsetFile));
  },
};

/** Tests only: time jumps forward (or back) by `ms` for this process (and Next's bundled copy, via globalThis). */
export function moveClock(ms: number): void {
  if (environment("nodeEnv") === "production") throw new Error("the clock cannot be moved in production");
  holder.__owoClockOffsetMs = (holder.__owoClockOffsetMs ?? 0) + ms;
}
