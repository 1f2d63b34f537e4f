/**
 * `npm run bench [-- --quick] [-- --profile] [-- --no-build]`: Owo's production server and the floor (bench/floor.ts)
 * under the same load over loopback, on a temp database seeded in bulk. Writes bench/results/latest.md and latency.svg.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../server/testing/harness";
import { measureExport } from "./export-scenario";
import { BENCH_DIST, buildIsStale, buildPages, startChild, type Child } from "./processes";
import { printProfile } from "./profile";
import { latencySvg, resultsMarkdown, resultsTable, type Outcome } from "./report";
import { seedPayments, type SeedMerchant } from "./seed";
import { initiateOverRest, initiateOverTrpc, listPages, unavailable, verifyByReference, type Target } from "./scenarios";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const flags = new Set(process.argv.slice(2));
const quick = flags.has("--quick");
const SIZE = quick ? { verifyRows: 10_000, listRows: 100_000, seconds: 5 } : { verifyRows: 100_000, listRows: 1_000_000, seconds: 20 };
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
async function prepareDatabase(dataDir: string, port: number) {
  Object.assign(process.env, owoEnv(dataDir, port));
  const { migrateDatabase, closeDatabase } = await import("../db/client");
  const { createMerchant } = await import("../server/merchants/create-merchant");
  migrateDatabase();
  const merchants = [];
  for (let k = 0; k < MERCHANTS; k++) {
    const name = `Bench Store ${k}`;
    const email = `bench${k}@example.com`;
    merchants.push({ name, email, ...(await createMerchant({ name, email, password: "bench password" })) });
  }
  closeDatabase();
  return merchants;
}

async function seed(merchants: SeedMerchant[], count: number, firstIndex: number, port: number) {
  const { sqlite, closeDatabase } = await import("../db/client");
  const { settings } = await import("../server/settings");
  const s = settings();
  const started = Date.now();
  const seeded = seedPayments(sqlite(), {
    merchants, count, firstIndex, now: Date.now(), publicUrl: `http://127.0.0.1:${port}`, ussdTtlSeconds: s.ussdTtlSeconds, transferTtlSeconds: s.transferTtlSeconds,
  });
  closeDatabase();
  console.log(`seeded ${count} payments in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return seeded;
}

async function startOwo(dataDir: string, port: number): Promise<Child> {
  const flagsForNode = flags.has("--profile") ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  return startChild(root, "server/main.ts", owoEnv(dataDir, port), flagsForNode);
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
    const [bench] = merchants;
    if (!bench) throw new Error("no merchant");
    const { referencesOfFirst, nextIndex } = await seed(merchants.map((m) => ({ id: m.merchantId, name: m.name })), SIZE.verifyRows, 0, port);

    console.log("\nfloor (bench/floor.ts): same database, copied");
    const floorDir = join(dataDir, "floor");
    mkdirSync(floorDir);
    copyFileSync(join(dataDir, "owo.db"), join(floorDir, "owo.db"));
    const floorPort = await freePort();
    const floor = await startChild(root, "bench/floor.ts", {
      PORT: String(floorPort), DATABASE_URL: join(floorDir, "owo.db"), OWO_PUBLIC_URL: `http://127.0.0.1:${floorPort}`, FLOOR_MERCHANT_ID: bench.merchantId, FLOOR_MERCHANT_NAME: bench.name,
    });
    const atFloor: Target = { url: floor.url, token: "none", publicKey: bench.publicKey, server: "floor", connections: CONNECTIONS, seconds: SIZE.seconds };
    try {
      outcomes.push(await verifyByReference(atFloor, referencesOfFirst));
      outcomes.push(await initiateOverRest(atFloor, "USSD"));
      outcomes.push(await initiateOverRest(atFloor, "TRANSFER"));
    } finally {
      await floor.stop();
    }

    console.log(`\nowo (server/main.ts, ${pages ? `production build in ${BENCH_DIST}` : "API only"})`);
    let owo = await startOwo(dataDir, port);
    try {
      const at: Target = { url: owo.url, token: await tokenFor(owo.url, bench), publicKey: bench.publicKey, server: "owo", connections: CONNECTIONS, seconds: SIZE.seconds };
      const floorVerify = outcomes[0]?.scenario;
      outcomes.push(await verifyByReference(at, referencesOfFirst, floorVerify));
      outcomes.push(await initiateOverRest(at, "USSD", "initiate USSD"));
      outcomes.push(await initiateOverRest(at, "TRANSFER", "initiate TRANSFER"));
      outcomes.push(await initiateOverTrpc(at, "USSD", "initiate USSD"));
      outcomes.push(await initiateOverTrpc(at, "TRANSFER", "initiate TRANSFER"));
    } finally {
      await owo.stop();
    }

    // The list and the export are per merchant: the bench's own merchant gets the whole seeded history.
    console.log(`\nhistory: ${SIZE.listRows} seeded payments of one merchant`);
    await seed([{ id: bench.merchantId, name: bench.name }], SIZE.listRows - referencesOfFirst.length, nextIndex, port);
    owo = await startOwo(dataDir, port);
    try {
      const at: Target = { url: owo.url, token: await tokenFor(owo.url, bench), publicKey: bench.publicKey, server: "owo", connections: LIST_CONNECTIONS, seconds: SIZE.seconds };
      outcomes.push(...(await listPages(at, new Date())));
      const { settings } = await import("../server/settings");
      outcomes.push(pages ? await measureExport(owo, bench, settings().authSecret) : unavailable("CSV export, whole history", "owo", "next build failed, so the export route was not served"));
    } catch (e) {
      outcomes.push(unavailable("history", "owo", e instanceof Error ? e.message : String(e)));
    } finally {
      await owo.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  const info = {
    date: new Date().toISOString(), command, cores: cpus().length, cpu: cpus()[0]?.model ?? "?", node: process.version,
    mode: `${quick ? "quick" : "full"}: ${SIZE.seconds} s per scenario${pages ? "" : "; API only (next build failed)"}`,
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
