// Owo's clock: tests move it (in process, or through the file a started process reads); production never moves.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDataDir } from "./testing/harness";
import { clock, moveClock } from "./clock";

/** What `clock.now() - Date.now()` reads in a fresh process with this environment (in whole minutes). */
function offsetMinutesIn(env: Record<string, string>): number {
  const r = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      'import("./server/clock.ts").then(({ clock }) => console.log(Math.round((clock.now() - Date.now()) / 60000) || 0))',
    ],
    {
      env: { PATH: process.env.PATH ?? "", ...env } as unknown as NodeJS.ProcessEnv, // exactly these: no NODE_ENV unless given
      encoding: "utf8",
    },
  );
  assert.equal(r.status, 0, r.stderr);
  // `|| 0` above: now() read a millisecond before Date.now() rounds to -0, which strict equality tells from 0.
  return Number(r.stdout.trim());
}

test("a process started with NODE_ENV=test follows the clock file; under production the file is ignored", () => {
  const dir = tempDataDir();
  const file = join(dir, "clock-offset");
  writeFileSync(file, String(90 * 60_000));
  assert.equal(offsetMinutesIn({ NODE_ENV: "test", OWO_TEST_CLOCK_FILE: file }), 90);
  assert.equal(offsetMinutesIn({ NODE_ENV: "production", OWO_TEST_CLOCK_FILE: file }), 0);
  assert.equal(offsetMinutesIn({ OWO_TEST_CLOCK_FILE: file }), 0, "only NODE_ENV=test reads it");
  rmSync(dir, { recursive: true, force: true });
});

test("moving the clock in process shifts now(); under production it is refused", async () => {
  const before = clock.now() - Date.now();
  moveClock(3_600_000);
  assert.ok(Math.abs(clock.now() - Date.now() - before - 3_600_000) < 1000);
  // Next's types make NODE_ENV read-only; this test sets it for a moment.
  const environment = process.env as Record<string, string | undefined>;
  const env = environment.NODE_ENV;
  environment.NODE_ENV = "production";
  try {
    assert.throws(() => moveClock(1), /cannot be moved in production/);
  } finally {
    if (env === undefined) delete environment.NODE_ENV;
    else environment.NODE_ENV = env;
  }
});
