// The processes the bench measures: its own Next build, the production server and the floor, each a child process.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const BENCH_DIST = ".next-bench";

/** Files whose change can change the pages; tests and the bench itself cannot. */
const SOURCES = ["app", "server", "db", "next.config.mjs", "package.json", "tsconfig.json"];

function newestSource(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith(".test.ts") ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

export function buildIsStale(root: string): boolean {
  const buildId = join(root, BENCH_DIST, "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestSource(join(root, s)) > built);
}

/**
 * `next build` into .next-bench, never clashing with other builds. Next adds its dist folder's types to
 * tsconfig.json's include; the bench puts the file back as it was, since that entry is the bench's alone.
 * False when the build fails (someone's page in progress): the API doors do not need it.
 */
export function buildPages(root: string): boolean {
  const tsconfig = join(root, "tsconfig.json");
  const before = readFileSync(tsconfig, "utf8");
  const beforeStat = statSync(tsconfig);
  const started = Date.now();
  const r = spawnSync("npx", ["next", "build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, OWO_NEXT_DIST: BENCH_DIST, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (readFileSync(tsconfig, "utf8") !== before) {
    writeFileSync(tsconfig, before);
    // Its old time too: a tsconfig.json newer than the build would make the next run build again for nothing.
    utimesSync(tsconfig, beforeStat.atime, beforeStat.mtime);
  }
  if (r.status !== 0) return false;
  console.log(`built ${BENCH_DIST} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return true;
}

/**
 * The node flags `npm start` gives the server (package.json; the systemd units give the same, deploy-files.test), so the
 * bench measures Owo as shipped.
 */
export function shippedNodeFlags(root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { start: string } };
  const flags = /\bnode((?: --\S+)*) --import tsx /.exec(scripts.start)?.[1];
  if (flags === undefined) throw new Error(`package.json's start script does not run node --import tsx: ${scripts.start}`);
  return flags.split(" ").filter(Boolean);
}

export type Child = { url: string; child: ChildProcess; stop: () => Promise<void> };

/**
 * Starts `node --import tsx <entry>` (the tsx CLI would add a wrapper process between us and the server's pid).
 * `logFile`: where its standard output (the log lines) goes, as a deployment would send them to a file or journal.
 */
export async function startChild(
  root: string,
  entry: string,
  env: Record<string, string>,
  nodeFlags: string[] = [],
  logFile?: string,
): Promise<Child> {
  const url = `http://127.0.0.1:${env.PORT}`;
  const out = logFile === undefined ? "inherit" : openSync(logFile, "a");
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", out, "pipe"],
  });
  if (typeof out === "number") closeSync(out);
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
    process.stderr.write(d);
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).status === 200) return { url, child, stop };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`${entry} did not start:\n${stderr}`);
}

/** Resets the kernel's peak-RSS mark of `pid` (Linux), so the next `peakRssBytes` covers only what follows. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

function statusField(pid: number, field: "VmHWM" | "VmRSS"): number | null {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return kb?.[1] ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export const peakRssBytes = (pid: number) => statusField(pid, "VmHWM");

/** The processes `pid` started that are still running (Linux: each thread's children file). */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}
export const rssBytes = (pid: number) => statusField(pid, "VmRSS");
