/**
 * `npm run bench [-- --quick] [-- --profile] [-- --only=<word>] [-- --no-build]`: Owo's production server and the floor
 * under the same load over loopback, on a temp database seeded in bulk. Writes bench/results/latest.md and latency.svg.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { databasePathOf } from "../db/location";
import { freePort } from "../server/testing/harness";
import { measureExport } from "./export-scenario";
import { BENCH_DIST, buildIsStale, buildPages, startChild, type Child } from "./processes";
import { printProfile } from "./profile";
import { bestOfRounds, latencySvg, resultsMarkdown, resultsTable, type LoadResult, type Outcome } from "./report";
import { seedPayments, type SeedMerchant } from "./seed";
import { initiateOverRest, initiateOverTrpc, listPages, unavailable, verifyByReference, type Target } from "./scenarios";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const flags = new Set(process.argv.slice(2));
/** `--only=initiate` runs the scenarios whose name holds that word (with --profile: one door at a time). */
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const wanted = (scenario: string) => only === undefined || scenario.includes(only);
const quick = flags.has("--quick");
/** Full runs measure the API doors twice and keep each scenario's least disturbed round. */
const SIZE = quick ? { verifyRows: 10_000, listRows: 100_000, seconds: 5, rounds: 1 } : { verifyRows: 100_000, listRows: 1_000_000, seconds: 20, rounds: 2 };
const CONNECTIONS = 32;
/** The dashboard's list is people paging, not a machine flood. */
const LIST_CONNECTIONS = 4;
const MERCHANTS = 10;
const resultsDir = join(root, "bench/results");
const profileDir = join(resultsDir, "profiles");

/** Without a build the server runs API-only (REST, tRPC): the pages and the export route are then not served. */
let pages = true;

const owoEnv = (dataDir: string, port: number): Record<string, string> => ({
  NODE_ENV: "production", DATABASE_URL: join(dataDir, "owo.db"), PORT: String(port), OWO_PUBLIC_URL: `http://127.0.0.1:${port}`,
  OWO_RATE_LIMIT_RPS: "0", OWO_IP_RATE_LIMIT_PER_MIN: "0", OWO_WORKER: "off", OWO_SWEEP_INTERVAL_SECONDS: "0", LOG_LEVEL: "warn",
  OWO_NEXT_DIST: BENCH_DIST, NEXT_TELEMETRY_DISABLED: "1", OWO_PAGES: pages ? "on" : "off",
});

async function tokenFor(url: string, m: { secretKey: string; publicKey: string }): Promise<string> {
  const res = await fetch(`${url}/api/v2/encrypt/keys`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key: `${m.secretKey}.${m.publicKey}` }) });
  const body = (await res.json()) as { data?: { EncryptedSecKey?: { encryptedKey?: string } } };
  const token = body.data?.EncryptedSecKey?.encryptedKey;
  if (!token) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(body)}`);
  return token;
}

/** Merchants through the service (keys, owner, signing secret), then the history in bulk; the server is not running. */
type BenchMerchant = { merchantId: string; userId: string; name: string; email: string; publicKey: string; secretKey: string };

async function prepareDatabase(dataDir: string, port: number): Promise<BenchMerchant[]> {
  Object.assign(process.env, owoEnv(dataDir, port));
  const { migrateDatabase, closeDatabase } = await import("../db/client");
  const { createMerchant } = await import("../server/merchants/create-merchant");
  await migrateDatabase();
  const merchants = [];
  for (let k = 0; k < MERCHANTS; k++) {
    const name = `Bench Store ${k}`;
    const email = `bench${k}@example.com`;
    merchants.push({ name, email, ...(await createMerchant({ name, email, password: "bench password", emailVerified: true })) });
  }
  await closeDatabase();
  return merchants;
}

/** The bench's own connection to the file: the bulk load switches the journal mode, which only a lone connection may. */
function benchFile(): Database.Database {
  return new Database(databasePathOf(process.env.DATABASE_URL));
}

async function seed(merchants: SeedMerchant[], count: number, firstIndex: number, port: number) {
  const { settings } = await import("../server/settings");
  const s = settings();
  const started = Date.now();
  const file = benchFile();
  const seeded = seedPayments(file, {
    merchants, count, firstIndex, now: Date.now(), publicUrl: `http://127.0.0.1:${port}`, ussdTtlSeconds: s.ussdTtlSeconds, transferTtlSeconds: s.transferTtlSeconds,
  });
  file.close();
  console.log(`seeded ${count} payments in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return seeded;
}

async function paymentsOf(merchantId: string): Promise<number> {
  const file = benchFile();
  const { n } = file.prepare("select count(*) as n from payments where merchant_id = ?").get(merchantId) as { n: number };
  file.close();
  return n;
}

async function startOwo(dataDir: string, port: number): Promise<Child> {
  const flagsForNode = flags.has("--profile") ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  return startChild(root, "server/main.ts", owoEnv(dataDir, port), flagsForNode);
}

/** Both servers up at once, each scenario run on the floor and then on Owo: the machine's noise falls on both alike. */
async function machineDoors(dataDir: string, port: number, bench: BenchMerchant, references: string[], outcomes: Outcome[]) {
  const floorDir = join(dataDir, "floor");
  mkdirSync(floorDir);
  copyFileSync(join(dataDir, "owo.db"), join(floorDir, "owo.db"));
  const floorPort = await freePort();
  console.log(`\nfloor (bench/floor.ts, a copy of the database) against owo (server/main.ts, ${pages ? `production build in ${BENCH_DIST}` : "API only"})`);
  const floor = await startChild(root, "bench/floor.ts", {
    PORT: String(floorPort), DATABASE_URL: join(floorDir, "owo.db"), OWO_PUBLIC_URL: `http://127.0.0.1:${floorPort}`, FLOOR_MERCHANT_ID: bench.merchantId, FLOOR_MERCHANT_NAME: bench.name,
  });
  const owo = await startOwo(dataDir, port);
  try {
    const common = { publicKey: bench.publicKey, connections: CONNECTIONS, seconds: SIZE.seconds };
    const atFloor: Target = { ...common, url: floor.url, token: "none", server: "floor" };
    const at: Target = { ...common, url: owo.url, token: await tokenFor(owo.url, bench), server: "owo" };
    const rounds: LoadResult[][] = [];
    for (let round = 1; round <= SIZE.rounds; round++) {
      if (SIZE.rounds > 1) console.log(`  round ${round} of ${SIZE.rounds}`);
      const results: LoadResult[] = [];
      if (wanted("verify")) {
        const base = await verifyByReference(atFloor, references);
        results.push(base, await verifyByReference(at, references, base.scenario));
      }
      for (const channel of ["USSD", "TRANSFER"] as const) {
        if (!wanted(`initiate ${channel}`)) continue;
        const base = await initiateOverRest(atFloor, channel);
        results.push(base, await initiateOverRest(at, channel, base.scenario), await initiateOverTrpc(at, channel, base.scenario));
      }
      rounds.push(results);
    }
    outcomes.push(...bestOfRounds(rounds));
  } finally {
    await Promise.all([floor.stop(), owo.stop()]);
  }
}

/**
 * The list and the export are per merchant. The second merchant gets the whole seeded history: the first one has
 * just made tens of thousands of pending payments in a minute, which no real history looks like.
 */
async function history(dataDir: string, port: number, merchant: BenchMerchant, firstIndex: number, outcomes: Outcome[]) {
  if (!wanted("list") && !wanted("export")) return;
  console.log(`\nhistory: ${SIZE.listRows.toLocaleString("en")} seeded payments of one merchant`);
  await seed([{ id: merchant.merchantId, name: merchant.name }], SIZE.listRows - (await paymentsOf(merchant.merchantId)), firstIndex, port);
  if (wanted("list")) {
    const owo = await startOwo(dataDir, port);
    try {
      const at: Target = { url: owo.url, token: await tokenFor(owo.url, merchant), publicKey: merchant.publicKey, server: "owo", connections: LIST_CONNECTIONS, seconds: SIZE.seconds };
      outcomes.push(...(await listPages(at, new Date())));
    } finally {
      await owo.stop();
    }
  }
  if (!wanted("export")) return;
  if (!pages) {
    outcomes.push(unavailable("CSV export, whole history", "owo", "next build failed, so the export route was not served"));
    return;
  }
  // A fresh process, so the peak RSS is the export's and not the heap the list load left behind.
  const owo = await startOwo(dataDir, port);
  try {
    const { settings } = await import("../server/settings");
    outcomes.push(await measureExport(owo, merchant, settings().authSecret));
  } finally {
    await owo.stop();
  }
}

async function main() {
  const loadBefore = loadavg().map((l) => l.toFixed(2)).join(" ");
  const started = Date.now();
  if (flags.has("--no-build") && existsSync(join(root, BENCH_DIST, "BUILD_ID"))) console.log(`using ${BENCH_DIST} as it is (--no-build)`);
  else if (buildIsStale(root)) pages = buildPages(root);
  if (!pages) console.log("\nnext build failed: measuring the API doors without pages (OWO_PAGES=off); the export route is not served\n");
  mkdirSync(resultsDir, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), "owo-bench-"));
  const outcomes: Outcome[] = [];
  try {
    const port = await freePort();
    const merchants = await prepareDatabase(dataDir, port);
    const [bench, other] = merchants;
    if (!bench || !other) throw new Error("the bench needs two merchants");
    const { referencesOfFirst, nextIndex } = await seed(merchants.map((m) => ({ id: m.merchantId, name: m.name })), SIZE.verifyRows, 0, port);
    await machineDoors(dataDir, port, bench, referencesOfFirst, outcomes);
    await history(dataDir, port, other, nextIndex, outcomes);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  const info = {
    date: new Date().toISOString(), command, cores: cpus().length, cpu: cpus()[0]?.model ?? "?", node: process.version,
    mode: `${quick ? "quick" : "full"}: ${SIZE.seconds} s per scenario${SIZE.rounds > 1 ? `, best of ${SIZE.rounds} rounds for the API doors` : ""}${pages ? "" : "; API only (next build failed)"}`,
    rows: `verify on ${SIZE.verifyRows.toLocaleString("en")} payments of ${MERCHANTS} merchants; list and export over one merchant's ${SIZE.listRows.toLocaleString("en")}`,
    loadBefore, loadAfter: loadavg().map((l) => l.toFixed(2)).join(" "),
  };
  writeFileSync(join(resultsDir, "latest.md"), resultsMarkdown(info, outcomes));
  writeFileSync(join(resultsDir, "latency.svg"), latencySvg(outcomes, `Owo latency per scenario — ${info.mode}, ${info.cores} cores, Node ${info.node}`));
  writeFileSync(join(resultsDir, "latest.json"), JSON.stringify({ info, outcomes }, null, 2));
  console.log(`\n${resultsTable(outcomes)}\n\nwritten: bench/results/latest.md, latency.svg (${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
  if (flags.has("--profile")) printProfile(profileDir);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
