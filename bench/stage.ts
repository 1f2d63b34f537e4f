// One bench run's shared ground (bench/run.ts drives it): the options, the sizes, the secrets every Owo process of the
// deployment shares, Owo's environment as deployed, and starting Owo processes on a stage's database.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { freePort } from "../server/testing/harness";
import type { BenchDatabase } from "./databases";
import type { BenchOptions } from "./options";
import { BENCH_DIST, shippedNodeFlags, startChild, type Child } from "./processes";
import type { Outcome } from "./report";
import type { SeedMerchant } from "./seed";

export const CONNECTIONS = 32;
/** The dashboard's list is people paging, not a machine flood. */
export const LIST_CONNECTIONS = 4;
export const MERCHANTS = 10;

export type BenchRun = {
  root: string;
  options: BenchOptions;
  /** `--only=initiate,books`: the scenarios whose name holds any of the words. */
  wanted(scenario: string): boolean;
  size: { verifyRows: number; listRows: number; seconds: number; rounds: number };
  /** Without a build the server runs API-only (REST, tRPC): the pages and the export route are then not served. */
  pages: boolean;
  /** What every process of one deployment shares (several instances must agree on them; the bench seals with them too). */
  secrets: Record<"AUTH_SECRET" | "OWO_MASTER_KEY" | "OWO_SANDBOX_BANK_SECRET", string>;
  profileDir: string;
};

export function benchRun(root: string, options: BenchOptions, profileDir: string): BenchRun {
  const { quick, only } = options;
  /** Full runs measure the API doors twice and keep each scenario's least disturbed round. */
  const mode = quick
    ? { verifyRows: 10_000, listRows: 100_000, seconds: 5, rounds: 1 }
    : { verifyRows: 100_000, listRows: 1_000_000, seconds: 20, rounds: 2 };
  return {
    root,
    options,
    wanted: (scenario) => only === undefined || only.split(",").some((word) => scenario.includes(word)),
    size: { ...mode, seconds: options.seconds ?? mode.seconds },
    pages: true,
    secrets: {
      AUTH_SECRET: randomBytes(32).toString("hex"),
      OWO_MASTER_KEY: randomBytes(32).toString("hex"),
      OWO_SANDBOX_BANK_SECRET: randomBytes(24).toString("hex"),
    },
    profileDir,
  };
}

export type BenchMerchant = { merchantId: string; userId: string; name: string; email: string; publicKey: string; secretKey: string };

/** One run on one database: its servers, its seeded history, its floor. */
export type Stage = { run: BenchRun; db: BenchDatabase; dataDir: string; port: number; outcomes: Outcome[] };

/**
 * Owo as deployed: default log level (to a file), callback worker and sweeper on. Rate limits stay off: the bench is
 * one client at thousands of requests a second, which a merchant's budget exists to refuse. `--lean` runs Owo as the
 * bench did before (warn logging, no worker, no sweeper), to measure what deployment costs.
 */
export const owoEnv = (run: BenchRun, db: BenchDatabase, dataDir: string, port: number): Record<string, string> => ({
  NODE_ENV: "production",
  DATABASE_URL: db.url,
  OWO_DATA_DIR: dataDir,
  PORT: String(port),
  OWO_PUBLIC_URL: `http://127.0.0.1:${port}`,
  ...run.secrets,
  OWO_RATE_LIMIT_RPS: "0",
  OWO_IP_RATE_LIMIT_PER_MIN: "0",
  OWO_NOTICE_RATE_LIMIT_RPS: "0",
  OWO_NEXT_DIST: BENCH_DIST,
  NEXT_TELEMETRY_DISABLED: "1",
  OWO_PAGES: run.pages ? "on" : "off",
  ...(run.options.lean ? { OWO_WORKER: "off", OWO_SWEEP_INTERVAL_SECONDS: "0", LOG_LEVEL: "warn" } : {}),
});

export async function tokenFor(url: string, m: { secretKey: string; publicKey: string }): Promise<string> {
  const res = await fetch(`${url}/api/v2/encrypt/keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: `${m.secretKey}.${m.publicKey}` }),
  });
  const body = (await res.json()) as { data?: { EncryptedSecKey?: { encryptedKey?: string } } };
  const token = body.data?.EncryptedSecKey?.encryptedKey;
  if (!token) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(body)}`);
  return token;
}

export async function seed(s: Stage, merchants: SeedMerchant[], count: number, firstIndex: number) {
  const { settings } = await import("../server/settings");
  const { ussdTtlSeconds, transferTtlSeconds } = settings();
  const started = Date.now();
  const seeded = await s.db.seed({
    merchants,
    count,
    firstIndex,
    now: Date.now(),
    publicUrl: `http://127.0.0.1:${s.port}`,
    ussdTtlSeconds,
    transferTtlSeconds,
  });
  console.log(
    `seeded ${count} payments and their ${seeded.entries} ledger entries into ${s.db.dialect} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return seeded;
}

const nodeFlags = (run: BenchRun) => [
  ...shippedNodeFlags(run.root),
  ...(run.options.profile ? ["--cpu-prof", `--cpu-prof-dir=${run.profileDir}`] : []),
];

/** One Owo process of the stage's deployment on a free port, with `env` on top. */
export async function startOwo(s: Stage, env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  return startChild(
    s.run.root,
    "server/main.ts",
    { ...owoEnv(s.run, s.db, s.dataDir, port), ...env },
    nodeFlags(s.run),
    join(s.dataDir, `owo-${port}.log`),
  );
}

/** `count` Owo processes on one database (the first on the stage's port), started together as a deployment would. */
export async function startOwos(s: Stage, count: number): Promise<Child[]> {
  const ports = [s.port, ...(await Promise.all(Array.from({ length: count - 1 }, () => freePort())))];
  return Promise.all(
    ports.map((port, i) =>
      startChild(s.run.root, "server/main.ts", owoEnv(s.run, s.db, s.dataDir, port), nodeFlags(s.run), join(s.dataDir, `owo-${i + 1}.log`)),
    ),
  );
}

export const pidsOf = (children: Child[]) => () => children.flatMap((c) => (c.child.pid === undefined ? [] : [c.child.pid]));
export const stopAll = (children: Child[]) => Promise.all(children.map((c) => c.stop()));
