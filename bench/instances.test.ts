// The bench's flags, its several-instance load and its per-database report, without any load or database.
import assert from "node:assert/strict";
import { test } from "node:test";
import { getTableColumns } from "drizzle-orm";
import { payments as pgPayments } from "../db/schema-pg";
import { percentile, splitConnections } from "./load";
import { BenchUsage, parseOptions } from "./options";
import { BULK_INSERT_PG_SQL, byColumnName, completeRow, INSERT_PAYMENT_PG_SQL, paymentValues } from "./payment-rows";
import { cpuSummary, resultsTable, scalingTable, type LoadResult, type Outcome } from "./report";
import { seedRows } from "./seed";
import { verdicts } from "./targets";

const run = (over: Partial<LoadResult> & Pick<LoadResult, "scenario" | "server" | "rps">): LoadResult => ({
  kind: "load",
  connections: 32,
  requests: over.rps * 5,
  p50: 5,
  p90: 10,
  p99: 20,
  errors: 0,
  ...over,
});

test("the flags: SQLite alone by default; --db and --instances as lists; mistakes refused before anything runs", () => {
  assert.deepEqual(parseOptions([]), {
    quick: false,
    profile: false,
    noBuild: false,
    only: undefined,
    dialects: ["sqlite"],
    instances: [1],
    lean: false,
    seconds: undefined,
    pairs: undefined,
    durable: false,
  });
  const pg = parseOptions(["--db=postgres", "--instances=4,1,2", "--quick", "--only=initiate"]);
  assert.deepEqual([pg.dialects, pg.instances, pg.quick, pg.only], [["postgres"], [1, 2, 4], true, "initiate"]);
  assert.deepEqual(parseOptions(["--db=sqlite,postgres", "--lean"]).dialects, ["sqlite", "postgres"]);
  assert.equal(parseOptions(["--lean"]).lean, true);
  assert.equal(parseOptions(["--db=postgres", "--durable"]).durable, true);
  assert.throws(() => parseOptions(["--db=mysql"]), BenchUsage);
  assert.throws(() => parseOptions(["--db=postgres", "--instances=0"]), BenchUsage);
  assert.throws(() => parseOptions(["--db=postgres", "--instances=two"]), BenchUsage);
  assert.throws(() => parseOptions(["--instances=2"]), /needs --db=postgres/);
  assert.throws(() => parseOptions(["--qiuck"]), /unknown flag --qiuck/);
  assert.equal(parseOptions(["--quick", "--seconds=10"]).seconds, 10);
  assert.throws(() => parseOptions(["--seconds=0"]), BenchUsage);
  assert.equal(parseOptions(["--pairs=12"]).pairs, 12);
  assert.equal(parseOptions(["--pairs=120"]).pairs, 120);
  assert.throws(() => parseOptions(["--pairs=0"]), BenchUsage);
  assert.throws(() => parseOptions(["--pairs=many"]), /--pairs: expected a count/);
});

test("several instances share the connections evenly and their latencies are pooled", () => {
  assert.deepEqual(splitConnections(32, 1), [32]);
  assert.deepEqual(splitConnections(32, 2), [16, 16]);
  assert.deepEqual(splitConnections(32, 3), [11, 11, 10]);
  assert.deepEqual(splitConnections(32, 4), [8, 8, 8, 8]);
  const ms = Float64Array.from({ length: 1000 }, (_, i) => i + 1).sort();
  assert.deepEqual([percentile(ms, 50), percentile(ms, 90), percentile(ms, 99)], [500, 900, 990]);
  assert.equal(percentile(new Float64Array(), 99), 0);
});

test("each Owo run is set against the floor on the same database with as many instances, and scaling is by instance count", () => {
  const outcomes: Outcome[] = [
    run({ scenario: "initiate USSD", server: "floor", rps: 4000, database: "sqlite" }),
    run({ scenario: "initiate USSD (REST)", server: "owo", rps: 2400, database: "sqlite", compareWith: "initiate USSD" }),
    run({ scenario: "initiate USSD (tRPC)", server: "owo", rps: 1800, database: "sqlite", compareWith: "initiate USSD" }),
    run({ scenario: "initiate USSD", server: "floor", rps: 2000, database: "postgres", instances: 1 }),
    run({
      scenario: "initiate USSD (REST)",
      server: "owo",
      rps: 1000,
      database: "postgres",
      instances: 1,
      compareWith: "initiate USSD",
      p99: 70,
    }),
    run({ scenario: "initiate USSD", server: "floor", rps: 2500, database: "postgres", instances: 2 }),
    run({
      scenario: "initiate USSD (REST)",
      server: "owo",
      rps: 1500,
      database: "postgres",
      instances: 2,
      compareWith: "initiate USSD",
      cpu: { owo: 1.2, postgres: 0.5, client: 0.2, machine: 2 },
    }),
    {
      kind: "export",
      scenario: "CSV export, whole history",
      server: "owo",
      rows: 1_000_000,
      bytes: 1,
      seconds: 10,
      rssBeforeBytes: 1,
      peakRssBytes: 220 * 1048576,
      exportProcessPeakBytes: 100 * 1048576,
      database: "postgres",
    },
  ];
  const table = resultsTable(outcomes);
  assert.match(table, /\| initiate USSD \(REST\) \| sqlite \| owo \| 1 \| 32 \| 2400 \|.*\| 60 % \|/);
  assert.match(table, /\| initiate USSD \(REST\) \| postgres \| owo \| 1 \| 32 \| 1000 \|.*\| 50 % \|/);
  assert.match(
    table,
    /\| initiate USSD \(REST\) \| postgres \| owo \| 2 \| 32 \| 1500 \|.*\| 60 % \| owo 1\.20 \(0\.80 ms\/req\) · postgres 0\.50 · client 0\.20 · other 0\.10 \|/,
  );
  assert.match(scalingTable(outcomes) ?? "", /\| initiate USSD \(REST\) \| postgres \| owo \| 1000 \| 1500 \| 1\.50× \|/);
  assert.equal(scalingTable(outcomes.slice(0, 3)), null, "one instance count: no scaling table");
  assert.equal(cpuSummary(undefined), "");

  const v = (target: string, db: string) => verdicts(outcomes).find((x) => x.target.startsWith(target) && x.database === db);
  assert.deepEqual([v("REST initiate", "sqlite")?.met, v("REST initiate", "sqlite")?.measured], [true, "USSD 60 %"]);
  assert.deepEqual([v("tRPC initiate", "sqlite")?.met, v("tRPC initiate", "sqlite")?.measured], [false, "USSD 75 %"]);
  assert.deepEqual([v("2 instances", "postgres")?.met, v("2 instances", "postgres")?.measured], [false, "initiate USSD (REST) 1.50×"]);
  assert.deepEqual([v("initiate p99", "postgres")?.met, v("initiate p99", "sqlite")?.met], [false, true]);
  assert.deepEqual(
    [v("CSV export", "postgres")?.met, v("CSV export", "postgres")?.measured],
    [false, "1,000,000 rows, peak 320 MB (server 220 MB + export process 100 MB)"],
  );
});

test("PostgreSQL's inserts name every column of its payments table, and a seeded row maps onto them", () => {
  const pgNames = Object.values(getTableColumns(pgPayments))
    .map((c) => c.name)
    .filter((n) => n !== "id");
  const [row] = [
    ...seedRows({
      merchants: [{ id: "mch_a", name: "A" }],
      count: 1,
      firstIndex: 0,
      now: Date.UTC(2026, 10, 22),
      publicUrl: "http://127.0.0.1:1",
      ussdTtlSeconds: 600,
      transferTtlSeconds: 1800,
    }),
  ];
  assert.ok(row);
  const complete = completeRow(row);
  assert.deepEqual(Object.keys(byColumnName(complete)).sort(), [...pgNames].sort());
  assert.equal(byColumnName(complete).payment_reference, row.paymentReference);
  assert.equal(paymentValues(complete).length, pgNames.length);
  assert.match(INSERT_PAYMENT_PG_SQL, new RegExp(`\\$${pgNames.length}\\)$`));
  for (const n of pgNames) assert.ok(BULK_INSERT_PG_SQL.includes(`"${n}"`), n);
});
