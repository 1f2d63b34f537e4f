/**
 * `npm run bench [-- --quick] [-- --profile] [-- --only=<word>] [-- --no-build] [-- --db=sqlite,postgres] [-- --instances=1,2,4] [-- --lean]`:
 * Owo's production server and the floor under the same load over loopback, on a temp database seeded in bulk.
 * Writes bench/results/latest.md and latency.svg.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../server/testing/harness";
import { openBenchDatabase, type BenchDatabase } from "./databases";
import { measureExport } from "./export-scenario";
import { BenchUsage, parseOptions, type Dialect } from "./options";
import { BENCH_DIST, buildIsStale, buildPages, startChild, type Child } from "./processes";
import { printProfile } from "./profile";
import { bestOfRounds, latencySvg, resultsMarkdown, resultsTable, type LoadResult, type Outcome } from "./report";
import type { SeedMerchant } from "./seed";
import { initiateOverRest, initiateOverTrpc, listPages, unavailable, verifyByReference, type Target } from "./scenarios";
import { verdictTable } from "./targets";
import { booksTable, creditCost, entriesPerSecond, type BooksStage } from "./books";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
let options: ReturnType<typeof parseOptions>;
try {
  options = parseOptions(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof BenchUsage)) throw e;
  console.error(`npm run bench: ${e.message}`);
  process.exit(2);
}
const { quick, only } = options;
/** `--only=initiate,books`: the scenarios whose name holds any of the words. */
const wanted = (scenario: string) => only === undefined || only.split(",").some((word) => scenario.includes(word));
/** Full runs measure the API doors twice and keep each scenario's least disturbed round. */
const MODE = quick
  ? { verifyRows: 10_000, listRows: 100_000, seconds: 5, rounds: 1 }
  : { verifyRows: 100_000, listRows: 1_000_000, seconds: 20, rounds: 2 };
const SIZE = { ...MODE, seconds: options.seconds ?? MODE.seconds };
const CONNECTIONS = 32;
/** The dashboard's list is people paging, not a machine flood. */
const LIST_CONNECTIONS = 4;
const MERCHANTS = 10;
const resultsDir = join(root, "bench/results");
const profileDir = join(resultsDir, "profiles");

/** Without a build the server runs API-only (REST, tRPC): the pages and the export route are then not served. */
let pages = true;

/** What every process of one deployment shares (several instances must agree on them; the bench seals with them too). */
const SECRETS = {
  AUTH_SECRET: randomBytes(32).toString("hex"),
  OWO_MASTER_KEY: randomBytes(32).toString("hex"),
  OWO_SANDBOX_BANK_SECRET: randomBytes(24).toString("hex"),
};

/**
 * Owo as deployed: default log level (to a file), callback worker and sweeper on. Rate limits stay off: the bench is
 * one client at thousands of requests a second, which a merchant's budget exists to refuse. `--lean` runs Owo as the
 * bench did before (warn logging, no worker, no sweeper), to measure what deployment costs.
 */
const owoEnv = (db: BenchDatabase, dataDir: string, port: number): Record<string, string> => ({
  NODE_ENV: "production",
  DATABASE_URL: db.url,
  OWO_DATA_DIR: dataDir,
  PORT: String(port),
  OWO_PUBLIC_URL: `http://127.0.0.1:${port}`,
  ...SECRETS,
  OWO_RATE_LIMIT_RPS: "0",
  OWO_IP_RATE_LIMIT_PER_MIN: "0",
  OWO_NOTICE_RATE_LIMIT_RPS: "0",
  OWO_NEXT_DIST: BENCH_DIST,
  NEXT_TELEMETRY_DISABLED: "1",
  OWO_PAGES: pages ? "on" : "off",
  ...(options.lean ? { OWO_WORKER: "off", OWO_SWEEP_INTERVAL_SECONDS: "0", LOG_LEVEL: "warn" } : {}),
});

async function tokenFor(url: string, m: { secretKey: string; publicKey: string }): Promise<string> {
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

type BenchMerchant = { merchantId: string; userId: string; name: string; email: string; publicKey: string; secretKey: string };

/** One run on one database: its servers, its seeded history, its floor. */
type Stage = { db: BenchDatabase; dataDir: string; port: number; outcomes: Outcome[] };

/** Merchants through the service (keys, owner, signing secret); the server is not running. */
async function prepareDatabase(s: Stage): Promise<BenchMerchant[]> {
  Object.assign(process.env, owoEnv(s.db, s.dataDir, s.port));
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

async function seed(s: Stage, merchants: SeedMerchant[], count: number, firstIndex: number) {
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

const nodeFlags = () => (options.profile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);

/** `count` Owo processes on one database (the first on the stage's port), started together as a deployment would. */
async function startOwos(s: Stage, count: number): Promise<Child[]> {
  const ports = [s.port, ...(await Promise.all(Array.from({ length: count - 1 }, () => freePort())))];
  return Promise.all(
    ports.map((port, i) =>
      startChild(root, "server/main.ts", owoEnv(s.db, s.dataDir, port), nodeFlags(), join(s.dataDir, `owo-${i + 1}.log`)),
    ),
  );
}

const pidsOf = (children: Child[]) => () => children.flatMap((c) => (c.child.pid === undefined ? [] : [c.child.pid]));
const stopAll = (children: Child[]) => Promise.all(children.map((c) => c.stop()));

/** Floors and Owos up at once, each scenario run on the floors and then on the Owos: the machine's noise falls on both alike. */
async function machineDoors(s: Stage, floorUrl: string, instances: number, bench: BenchMerchant, references: string[]) {
  const floorPorts = await Promise.all(Array.from({ length: instances }, () => freePort()));
  console.log(
    `\n${s.db.dialect}, ${instances} instance(s): floor (bench/floor.ts, a copy of the database) against owo (server/main.ts, ${pages ? `production build in ${BENCH_DIST}` : "API only"})`,
  );
  const floors = await Promise.all(
    floorPorts.map((port) =>
      startChild(root, "bench/floor.ts", {
        PORT: String(port),
        DATABASE_URL: floorUrl,
        OWO_PUBLIC_URL: `http://127.0.0.1:${port}`,
        FLOOR_MERCHANT_ID: bench.merchantId,
        FLOOR_MERCHANT_NAME: bench.name,
      }),
    ),
  );
  const owos = await startOwos(s, instances).catch(async (e: unknown) => {
    await stopAll(floors);
    throw e;
  });
  try {
    const common = { publicKey: bench.publicKey, connections: CONNECTIONS, seconds: SIZE.seconds };
    const client = { client: () => [process.pid] };
    const atFloor: Target = {
      ...common,
      urls: floors.map((f) => f.url),
      token: "none",
      server: "floor",
      cpu: { floor: pidsOf(floors), ...s.db.parties(), ...client },
      counters: s.db.counters(floorUrl),
    };
    const at: Target = {
      ...common,
      urls: owos.map((o) => o.url),
      token: await tokenFor(owos[0]?.url ?? "", bench),
      server: "owo",
      cpu: { owo: pidsOf(owos), ...s.db.parties(), ...client },
      counters: s.db.counters(s.db.url),
    };
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
    s.outcomes.push(...bestOfRounds(rounds));
  } finally {
    await Promise.all([stopAll(floors), stopAll(owos)]);
  }
  const logged = owos.reduce(
    (n, _, i) => n + (existsSync(join(s.dataDir, `owo-${i + 1}.log`)) ? statSync(join(s.dataDir, `owo-${i + 1}.log`)).size : 0),
    0,
  );
  console.log(`  owo wrote ${(logged / 1048576).toFixed(1)} MB of log lines`);
}

/** Issue 23's figures: what the books cost a sandbox credit, and balanced entries a second through the books core. */
async function books(s: Stage, merchants: BenchMerchant[], bench: BenchMerchant): Promise<void> {
  const stage: BooksStage = {
    root,
    dialect: s.db.dialect,
    url: s.db.url,
    start: async (env) => {
      const port = await freePort();
      return startChild(
        root,
        "server/main.ts",
        { ...owoEnv(s.db, s.dataDir, port), ...env },
        nodeFlags(),
        join(s.dataDir, `owo-books-${port}.log`),
      );
    },
    target: async (owo) => ({
      urls: [owo.url],
      token: await tokenFor(owo.url, bench),
      publicKey: bench.publicKey,
      server: "owo",
      connections: CONNECTIONS,
      seconds: SIZE.seconds,
      cpu: { owo: pidsOf([owo]), ...s.db.parties(), client: () => [process.pid] },
      counters: s.db.counters(s.db.url),
    }),
    pendingReferences: () => s.db.openReferencesOf(bench.merchantId, 200_000),
    merchants: merchants.map((m) => m.merchantId),
    instances: options.instances,
    seconds: SIZE.seconds,
    parties: s.db.parties(),
  };
  if (wanted("books: sandbox credit")) s.outcomes.push(...(await creditCost(stage)));
  if (wanted("books: balanced entries")) s.outcomes.push(...(await entriesPerSecond(stage)));
}

/**
 * The list and the export are per merchant, on one instance. The second merchant gets the whole seeded history: the
 * first one has just made tens of thousands of pending payments in a minute, which no real history looks like.
 */
async function history(s: Stage, merchant: BenchMerchant, firstIndex: number) {
  if (!wanted("list") && !wanted("export")) return;
  console.log(`\n${s.db.dialect} history: ${SIZE.listRows.toLocaleString("en")} seeded payments of one merchant`);
  await seed(
    s,
    [{ id: merchant.merchantId, name: merchant.name }],
    SIZE.listRows - (await s.db.paymentsOf(merchant.merchantId)),
    firstIndex,
  );
  if (wanted("list")) {
    const [owo] = await startOwos(s, 1);
    if (!owo) throw new Error("no server");
    try {
      const at: Target = {
        urls: [owo.url],
        token: await tokenFor(owo.url, merchant),
        publicKey: merchant.publicKey,
        server: "owo",
        connections: LIST_CONNECTIONS,
        seconds: SIZE.seconds,
      };
      s.outcomes.push(...(await listPages(at, new Date())));
    } finally {
      await owo.stop();
    }
  }
  if (!wanted("export")) return;
  if (!pages) {
    s.outcomes.push(unavailable("CSV export, whole history", "owo", "next build failed, so the export route was not served"));
    return;
  }
  // A fresh process, so the peak RSS is the export's and not the heap the list load left behind.
  const [owo] = await startOwos(s, 1);
  if (!owo) throw new Error("no server");
  const { closeDatabase } = await import("../db/client");
  try {
    s.outcomes.push(await measureExport(owo, merchant, SECRETS.AUTH_SECRET));
  } finally {
    await owo.stop();
    // The session was written through the bench's own data layer: let go of this database before the next one.
    await closeDatabase();
  }
}

async function onDatabase(dialect: Dialect): Promise<Outcome[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "owo-bench-"));
  const db = await openBenchDatabase(dialect, dataDir);
  const s: Stage = { db, dataDir, port: await freePort(), outcomes: [] };
  try {
    const merchants = await prepareDatabase(s);
    const [bench, other] = merchants;
    if (!bench || !other) throw new Error("the bench needs two merchants");
    const { referencesOfFirst, nextIndex } = await seed(
      s,
      merchants.map((m) => ({ id: m.merchantId, name: m.name })),
      SIZE.verifyRows,
      0,
    );
    const floorUrl = await db.floorCopy();
    const doors = ["verify", "initiate USSD", "initiate TRANSFER"].some(wanted);
    const before = { payments: await db.paymentsOf(bench.merchantId), entries: await db.entriesOf(bench.merchantId) };
    for (const instances of doors ? (dialect === "sqlite" ? [1] : options.instances) : [])
      await machineDoors(s, floorUrl, instances, bench, referencesOfFirst);
    const initiations = (await db.paymentsOf(bench.merchantId)) - before.payments;
    if (initiations > 0)
      s.outcomes.push({
        kind: "initiation-postings",
        scenario: "books: entries the initiations posted",
        initiations,
        entries: (await db.entriesOf(bench.merchantId)) - before.entries,
      });
    await books(s, merchants, bench);
    await history(s, other, nextIndex);
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return s.outcomes.map((o) => ({ ...o, database: dialect }));
}

async function main() {
  const loadBefore = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  const started = Date.now();
  if (!wanted("export")) {
    // Only the export needs Next's build; a run without it measures the API doors without pages loaded.
    pages = false;
    console.log("no export wanted: the API doors are measured without pages (OWO_PAGES=off), no build");
  } else if (options.noBuild && existsSync(join(root, BENCH_DIST, "BUILD_ID"))) console.log(`using ${BENCH_DIST} as it is (--no-build)`);
  else if (buildIsStale(root)) pages = buildPages(root);
  if (!pages && wanted("export"))
    console.log("\nnext build failed: measuring the API doors without pages (OWO_PAGES=off); the export route is not served\n");
  mkdirSync(resultsDir, { recursive: true });
  const outcomes: Outcome[] = [];
  for (const dialect of options.dialects) outcomes.push(...(await onDatabase(dialect)));

  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  const info = {
    date: new Date().toISOString(),
    command,
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? "?",
    node: process.version,
    mode: `${quick ? "quick" : "full"}: ${SIZE.seconds} s per scenario${SIZE.rounds > 1 ? `, best of ${SIZE.rounds} rounds for the API doors` : ""}${pages ? "" : "; API only (no pages loaded)"}; Owo ${options.lean ? "lean (warn logging, no worker, no sweeper)" : "as deployed (info logging to a file, worker and sweeper on, rate limits off)"}`,
    rows: `verify on ${SIZE.verifyRows.toLocaleString("en")} payments of ${MERCHANTS} merchants; list and export over one merchant's ${SIZE.listRows.toLocaleString("en")}`,
    loadBefore,
    loadAfter: loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
  };
  const booksLines = booksTable(outcomes);
  writeFileSync(
    join(resultsDir, "latest.md"),
    `${resultsMarkdown(info, outcomes)}\n${booksLines ? `${booksLines}\n\n` : ""}${verdictTable(outcomes)}\n`,
  );
  writeFileSync(
    join(resultsDir, "latency.svg"),
    latencySvg(outcomes, `Owo latency per scenario — ${quick ? "quick" : "full"}, ${info.cores} cores, Node ${info.node}`),
  );
  writeFileSync(join(resultsDir, "latest.json"), JSON.stringify({ info, outcomes }, null, 2));
  console.log(
    `\n${resultsTable(outcomes)}\n\n${booksLines ? `${booksLines}\n\n` : ""}${verdictTable(outcomes)}\n\nwritten: bench/results/latest.md, latency.svg (${((Date.now() - started) / 1000).toFixed(0)} s in all)`,
  );
  if (options.profile) printProfile(profileDir);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
