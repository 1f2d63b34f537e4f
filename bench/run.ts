/**
 * `npm run bench [-- --quick] [-- --profile] [-- --only=<word>] [-- --no-build] [-- --db=sqlite,postgres] [-- --instances=1,2,4] [-- --lean]`:
 * Owo's production server and the floor under the same load over loopback, on a temp database seeded in bulk.
 * Writes bench/results/latest.md and latency.svg. Each part of the run in its own file: the API doors (doors.ts), the
 * books (books-stage.ts), the history's list and export (history.ts), on the ground stage.ts lays.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../server/testing/harness";
import { booksTable } from "./books";
import { measureBooks } from "./books-stage";
import { openBenchDatabase } from "./databases";
import { machineDoors } from "./doors";
import { history } from "./history";
import { BenchUsage, parseOptions, type Dialect } from "./options";
import { BENCH_DIST, buildIsStale, buildPages } from "./processes";
import { printProfile } from "./profile";
import { latencySvg } from "./latency-chart";
import { resultsMarkdown, resultsTable, type Outcome } from "./report";
import { benchRun, MERCHANTS, owoEnv, seed, type BenchMerchant, type Stage } from "./stage";
import { verdictTable } from "./targets";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = join(root, "bench/results");
let options: ReturnType<typeof parseOptions>;
try {
  options = parseOptions(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof BenchUsage)) throw e;
  console.error(`npm run bench: ${e.message}`);
  process.exit(2);
}
const run = benchRun(root, options, join(resultsDir, "profiles"));
const { quick } = options;
const SIZE = run.size;
const wanted = run.wanted;

/** Merchants through the service (keys, owner, signing secret); the server is not running. */
async function prepareDatabase(s: Stage): Promise<BenchMerchant[]> {
  Object.assign(process.env, owoEnv(run, s.db, s.dataDir, s.port));
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

async function onDatabase(dialect: Dialect): Promise<Outcome[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "owo-bench-"));
  const db = await openBenchDatabase(dialect, dataDir, { durable: options.durable });
  const s: Stage = { run, db, dataDir, port: await freePort(), outcomes: [] };
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
    await measureBooks(s, merchants, bench);
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
    run.pages = false;
    console.log("no export wanted: the API doors are measured without pages (OWO_PAGES=off), no build");
  } else if (options.noBuild && existsSync(join(root, BENCH_DIST, "BUILD_ID"))) console.log(`using ${BENCH_DIST} as it is (--no-build)`);
  else if (buildIsStale(root)) run.pages = buildPages(root);
  if (!run.pages && wanted("export"))
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
    mode: `${quick ? "quick" : "full"}: ${SIZE.seconds} s per scenario${SIZE.rounds > 1 ? `, best of ${SIZE.rounds} rounds for the API doors` : ""}${run.pages ? "" : "; API only (no pages loaded)"}; Owo ${options.lean ? "lean (warn logging, no worker, no sweeper)" : "as deployed (info logging to a file, worker and sweeper on, rate limits off)"}${options.durable ? "; PostgreSQL durable (fsync, synchronous_commit and full page writes on)" : ""}`,
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
  if (options.profile) printProfile(run.profileDir);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
