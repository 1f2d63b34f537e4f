// Balanced entries a second through the books core (API.md "Ledger and balances"): `processes` processes of
// bench/ledger-writer.ts at once on one database, each with `writers` concurrent writers, all on the same merchants'
// books, so on PostgreSQL they meet at the chain head as several instances do.
import { spawn } from "node:child_process";
import { cpuMeter, type CpuParties } from "./cpu";

export type PostingLoad = {
  url: string;
  merchants: string[];
  processes: number;
  writers: number;
  seconds: number;
  /** The database server's processes (PostgreSQL's), so the rest of the machine's work can be told apart. */
  parties?: CpuParties;
};
/**
 * `otherCores`: the machine's busy cores during the run less the writers' and the database's: other people's work.
 * `writerMs`/`databaseMs`: CPU an entry took in the writers and in the database server, which a starved run inflates
 * less than it cuts entries a second.
 */
export type PostingRate = { entries: number; seconds: number; perSecond: number; otherCores: number; writerMs: number; databaseMs: number };
type Written = { posted: number; seconds: number; cpuSeconds: number };

type Writer = { ready: Promise<void>; start(at: number): void; done: Promise<Written> };

function writerProcess(root: string, load: PostingLoad): Writer {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/ledger-writer.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: load.url,
      OWO_LEDGER_SECONDS: String(load.seconds),
      OWO_LEDGER_WRITERS: String(load.writers),
      OWO_LEDGER_MERCHANTS: load.merchants.join(","),
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  let said: () => void = () => undefined;
  const ready = new Promise<void>((r) => (said = r));
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.includes("ready\n")) said();
  });
  const done = new Promise<Written>((resolve, reject) =>
    child.on("exit", (code) => {
      said(); // a writer that died before it was ready must not keep the others waiting
      const line = out.split("\n").find((l) => l.startsWith('{"posted"'));
      if (code === 0 && line) resolve(JSON.parse(line) as Written);
      else reject(new Error(`ledger-writer exited ${code}:\n${out}`));
    }),
  );
  return { ready, start: (at) => child.stdin.end(`${at}\n`), done };
}

export async function measurePostings(root: string, load: PostingLoad): Promise<PostingRate> {
  // Every process loaded and connected before the clock starts, so none measures another's start-up.
  const writers = Array.from({ length: load.processes }, () => writerProcess(root, load));
  await Promise.all(writers.map((w) => w.ready));
  const startAt = Date.now() + 200;
  for (const w of writers) w.start(startAt);
  await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
  const meter = cpuMeter(load.parties ?? {});
  const runs = await Promise.all(writers.map((w) => w.done));
  const cores = meter.stop();
  const entries = runs.reduce((n, r) => n + r.posted, 0);
  const seconds = Math.max(...runs.map((r) => r.seconds));
  const writersCores = runs.reduce((n, r) => n + r.cpuSeconds, 0) / seconds;
  const databaseCores = Object.entries(cores).reduce((n, [k, v]) => (k === "machine" ? n : n + v), 0);
  return {
    entries,
    seconds,
    perSecond: Math.round(entries / seconds),
    otherCores: Math.max(0, (cores.machine ?? 0) - writersCores - databaseCores),
    writerMs: entries ? (writersCores * seconds * 1000) / entries : 0,
    databaseMs: entries ? (databaseCores * seconds * 1000) / entries : 0,
  };
}
