// Where the machine's CPU went during a measured run (Linux /proc): Owo or the floor, the database server, the load
// client, and everything else on the machine. On 2 shared cores this says which party is the bottleneck.
import { readdirSync, readFileSync } from "node:fs";

/** Cores used: CPU seconds per wall-clock second, by party; `machine` is every core's busy time, ours or not. */
export type CpuUse = Record<string, number>;

/** Each party's processes as they are now (a pool may open connections, so the list is taken at both ends). */
export type CpuParties = Record<string, () => number[]>;

const TICKS_PER_SECOND = 100;

/** utime + stime of one process in clock ticks, or null once it is gone. */
function processTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the fields after it start at the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Busy ticks of all cores: everything but idle and iowait. */
function machineTicks(): number {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  return total - (cpu[3] ?? 0) - (cpu[4] ?? 0);
}

/** A process and all its descendants (a PostgreSQL postmaster and its backends). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  for (const queue = [root]; queue.length;) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The oldest process whose command line holds every one of `words` (a server we started but did not spawn). */
export function findProcess(words: string[]): number | null {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (words.every((w) => args.includes(w))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found.length ? Math.min(...found) : null;
}

export function cpuMeter(parties: CpuParties): { stop: () => CpuUse } {
  const started = process.hrtime.bigint();
  const machineAtStart = machineTicks();
  const atStart = new Map<number, number>();
  for (const pids of Object.values(parties)) for (const pid of pids()) atStart.set(pid, processTicks(pid) ?? 0);
  // Each process's ticks as last seen, read again every quarter second: a process that ends during the run (a
  // database connection closed by its client) keeps what it used up to then.
  const lastSeen = new Map<string, Map<number, number>>();
  const look = () => {
    for (const [party, pids] of Object.entries(parties)) {
      const seen = lastSeen.get(party) ?? new Map<number, number>();
      for (const pid of pids()) {
        const ticks = processTicks(pid);
        if (ticks !== null) seen.set(pid, ticks);
      }
      lastSeen.set(party, seen);
    }
  };
  look();
  const looking = setInterval(look, 250);
  looking.unref();
  return {
    stop() {
      clearInterval(looking);
      look();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const use: CpuUse = {};
      for (const [party, seen] of lastSeen) {
        // A process born during the run counts from zero.
        const ticks = [...seen].reduce((sum, [pid, t]) => sum + Math.max(0, t - (atStart.get(pid) ?? 0)), 0);
        use[party] = ticks / TICKS_PER_SECOND / seconds;
      }
      use.machine = (machineTicks() - machineAtStart) / TICKS_PER_SECOND / seconds;
      return use;
    },
  };
}
