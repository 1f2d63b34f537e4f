// The sweeper and the requery loop run on one instance of a deployment at a time and move when it goes: after a
// graceful stop at once, after a SIGKILL within a pass on PostgreSQL (the loop's advisory lock dies with the killed
// holder's connection), or once its lease row has run out on SQLite (OWO_SCALE_DB=sqlite). Each instance logs when it
// starts and stops running a loop (server/leases.ts); those lines are what this suite reads.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startFleet, type Fleet } from "../testing/fleet";
import { eventually } from "../testing/eventually";

const LOOPS = ["sweeper", "requery"] as const;
type Loop = (typeof LOOPS)[number];
/** The longest pass interval of the two loops: the sweeper's 1 s (requery's is 100 ms at this backoff scale). */
const PASS_MS = 1_000;
/** A lease row's life on SQLite: three provider timeouts or sweep periods, and never less than 10 s. */
const LEASE_MS = 10_000;
/** Room for a loaded machine (2 cores shared): process start, a PostgreSQL session ending, a late timer. */
const SLACK_MS = 2_000;

let fleet: Fleet;
before(async () => {
  fleet = await startFleet({
    apps: 2,
    workers: 0,
    appEnv: { OWO_SWEEP_INTERVAL_SECONDS: String(PASS_MS / 1000), OWO_REQUERY_BACKOFF_SCALE: "0.02", OWO_PROVIDER_TIMEOUT_MS: "2000" },
  });
});
after(() => fleet?.stop());

type Turn = { app: number; at: number };
type LogLine = { msg?: string; loop?: string; time?: number };

/** What instance `app` last logged about `loop`: that it runs it, or that it let it go, and when. */
function lastSaid(app: number, loop: Loop): { runs: boolean; at: number } | null {
  const lines = (fleet.apps[app]?.output() ?? "")
    .split("\n")
    .filter((l) => l.includes(`"loop":"${loop}"`))
    .map((l) => JSON.parse(l) as LogLine);
  const last = lines.at(-1);
  return last ? { runs: last.msg === "this instance now runs the loop", at: last.time ?? 0 } : null;
}

/** The live instance that runs `loop`, by its own word. */
function runner(loop: Loop): Turn | null {
  for (const [app, p] of fleet.apps.entries()) {
    const said = lastSaid(app, loop);
    if (p.child.exitCode === null && p.child.signalCode === null && said?.runs) return { app, at: said.at };
  }
  return null;
}

const runners = () =>
  eventually(
    "each loop run by an instance",
    () => LOOPS.every((l) => runner(l)) && new Map(LOOPS.map((l) => [l, runner(l) as Turn])),
    15_000,
  );

test("SIGKILL the instance running the loops: the survivor runs them within a pass (PostgreSQL) or once the lease runs out (SQLite)", async (t) => {
  const before = await runners();
  const victim = (before.get("sweeper") as Turn).app;
  const moving = LOOPS.filter((l) => before.get(l)?.app === victim);
  const killedAt = Date.now();
  await fleet.killApp(victim);
  const bound = fleet.db.dialect === "postgres" ? PASS_MS + SLACK_MS : LEASE_MS + PASS_MS + SLACK_MS;
  for (const loop of moving) {
    const taken = await eventually(`${loop} taken over`, () => runner(loop) ?? undefined, bound + 5_000);
    assert.notEqual(taken.app, victim);
    const ms = taken.at - killedAt;
    t.diagnostic(`${fleet.db.dialect}: ${loop} ran on the survivor ${ms} ms after its holder was killed`);
    assert.ok(ms <= bound, `${loop} moved within ${bound} ms of the SIGKILL (took ${ms} ms)`);
  }
  await fleet.restartApp(victim);
});

test("a graceful stop (SIGTERM) hands the loops on at once: the other instance runs them within a pass", async (t) => {
  const before = await runners();
  const leaving = (before.get("sweeper") as Turn).app;
  const moving = LOOPS.filter((l) => before.get(l)?.app === leaving);
  const p = fleet.apps[leaving];
  assert.ok(p);
  p.child.kill("SIGTERM");
  assert.equal(await p.exited, 0, "the instance stopped cleanly");
  for (const loop of moving) {
    const released = lastSaid(leaving, loop);
    assert.equal(released?.runs, false, `the stopping instance said it let ${loop} go`);
    const taken = await eventually(`${loop} taken over`, () => runner(loop) ?? undefined, PASS_MS + SLACK_MS + 5_000);
    const ms = taken.at - (released?.at ?? 0);
    t.diagnostic(`${fleet.db.dialect}: ${loop} ran on the other instance ${ms} ms after the stopping one let it go`);
    assert.ok(ms <= PASS_MS + SLACK_MS, `${loop} moved within a pass of its release (took ${ms} ms)`);
  }
  await fleet.restartApp(leaving);
});
