// The bench's own arithmetic and data, without any load: what it reports and what it seeds must be right.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { parseInitiateRequest } from "../server/payments/initiate-schema";
import { isValidNuban } from "../server/providers/nuban";
import { pooled } from "./books";
import { openBenchDatabase } from "./databases";
import { hottest } from "./profile";
import { latencySvg, tickStep } from "./latency-chart";
import { bestOfRounds, ratio, resultsTable, type LoadResult, type Outcome } from "./report";
import { seedPayments, seedRows, type SeedPlan } from "./seed";
import { verdicts } from "./targets";
import { initiationBodies } from "./scenarios";

const load = (scenario: string, server: "owo" | "floor", rps: number, p99: number, compareWith?: string): LoadResult => ({
  kind: "load",
  scenario,
  server,
  connections: 32,
  requests: rps * 10,
  rps,
  p50: p99 / 4,
  p90: p99 / 2,
  p99,
  errors: 0,
  compareWith,
});

const now = Date.UTC(2026, 10, 21, 12);
const merchants = [
  { id: "mch_big", name: "Big Store" },
  { id: "mch_mid", name: "Mid Store" },
  { id: "mch_small", name: "Small <&> Store" },
];
const plan: SeedPlan = {
  merchants,
  count: 1000,
  firstIndex: 0,
  now,
  publicUrl: "http://127.0.0.1:3000",
  ussdTtlSeconds: 600,
  transferTtlSeconds: 1800,
};

test("Owo ÷ floor is a plain ratio, and nothing when the floor did nothing", () => {
  assert.equal(ratio(1500, 3000), 0.5);
  assert.equal(ratio(10, 0), null);
});

test("the results table sets each Owo scenario against its floor and says what was not available", () => {
  const outcomes: Outcome[] = [
    load("initiate USSD", "floor", 3000, 20),
    load("initiate USSD (REST)", "owo", 1500, 40, "initiate USSD"),
    { kind: "unavailable", scenario: "CSV export", server: "owo", reason: "no export route yet" },
    {
      kind: "export",
      scenario: "CSV export",
      server: "owo",
      rows: 1_000_000,
      bytes: 200 * 1048576,
      seconds: 20,
      rssBeforeBytes: 120 * 1048576,
      peakRssBytes: 150 * 1048576,
    },
  ];
  const table = resultsTable(outcomes);
  assert.match(table, /\| initiate USSD \(REST\) \|  \| owo \| 1 \| 32 \| 1500 \| 10 \| 20 \| 40 \| 0 \| 50 % \|/);
  assert.match(table, /\| initiate USSD \|  \| floor \| 1 \| 32 \| 3000 \| 5 \| 10 \| 20 \| 0 \|  \|/);
  assert.match(table, /CSV export \|  \| owo \| \| \| not available: no export route yet/);
  assert.match(table, /\| CSV export \|  \| 1000000 \| 200 MB \| 20\.0 s \| 50000 \| 120 MB \| 150 MB \| n\/a \| 150 MB \|/);
});

test("of several rounds, each scenario's fastest is kept, in the first round's order", () => {
  const best = bestOfRounds([
    [load("a", "floor", 100, 10), load("a", "owo", 50, 20, "a")],
    [load("a", "floor", 90, 11), load("a", "owo", 70, 15, "a")],
  ]);
  assert.deepEqual(
    best.map((r) => [r.server, r.rps]),
    [
      ["floor", 100],
      ["owo", 70],
    ],
  );
});

test("axis ticks are 1, 2 or 5 times a power of ten, about five of them", () => {
  assert.equal(tickStep(47), 10);
  assert.equal(tickStep(870), 200);
  assert.equal(tickStep(3), 1);
  assert.equal(tickStep(0), 0.2);
});

test("the latency chart draws three bars per scenario, to scale, with labels escaped", () => {
  const svg = latencySvg([load("a & b", "owo", 100, 100), load("c", "floor", 100, 50)], "Owo <latency>");
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.ok(svg.endsWith("</svg>"));
  assert.match(svg, /Owo &lt;latency&gt;/);
  assert.match(svg, />a &amp; b</);
  assert.match(svg, />floor: c</);
  assert.match(svg, />100 ms</, "the p99 is written beside its bar");
  const widths = [...svg.matchAll(/<rect x="300" y="\d+" width="([\d.]+)" height="9"/g)].map((m) => Number(m[1]));
  assert.equal(widths.length, 6);
  // p99 of "a & b" (100 ms) fills the 520-pixel plot; the floor's p99 (50 ms) half of it.
  assert.equal(widths[2], 520);
  assert.equal(widths[5], 260);
});

test("seeded rows are unique where the schema says so, NUBAN-valid, and open only within their lifetime", () => {
  const rows = [...seedRows(plan)];
  assert.equal(rows.length, 1000);
  const unique = (values: unknown[]) => new Set(values).size === values.length;
  assert.ok(unique(rows.map((r) => r.linkingReference)));
  assert.ok(unique(rows.map((r) => `${r.merchantId}/${r.paymentReference}`)));
  assert.ok(unique(rows.filter((r) => r.accountNumber).map((r) => r.accountNumber)));
  assert.ok(unique(rows.filter((r) => r.providerReference).map((r) => `${r.bankCode}/${r.providerReference}`)));
  for (const r of rows) {
    assert.match(r.linkingReference, /^OWO\d{17}$/);
    if (r.paymentType === "TRANSFER") assert.ok(isValidNuban("000", r.accountNumber ?? ""), r.accountNumber ?? "no account");
    else assert.match(r.dialCode ?? "", new RegExp(`^\\*\\d+\\*000\\*${r.providerReference}#$`));
    const open = r.status === "PENDING" || r.status === "PARTIALLY_PAID";
    if (open) assert.ok(r.expiresAt > now);
    assert.ok(r.createdAt >= now - 90 * 86_400_000 && r.createdAt <= now);
    if (r.status === "FAILED") assert.equal(r.paymentType, "USSD");
    assert.equal(r.paidAt !== null, r.status === "SUCCESSFUL");
  }
  const share = (id: string) => rows.filter((r) => r.merchantId === id).length / rows.length;
  assert.ok(share("mch_big") > share("mch_mid") && share("mch_mid") > share("mch_small"));
  const statuses = new Set(rows.map((r) => r.status));
  for (const s of ["SUCCESSFUL", "FAILED", "EXPIRED"]) assert.ok(statuses.has(s as never), s);
  // A later call continues the numbering: no reference repeats across calls.
  const later = [...seedRows({ ...plan, firstIndex: 1000 })];
  assert.ok(unique([...rows, ...later].map((r) => r.linkingReference)));
});

test("seeded rows go into a migrated database as they are, and replace any number already issued", () => {
  const dir = mkdtempSync(join(tmpdir(), "owo-bench-test-"));
  const sqlite = new Database(join(dir, "owo.db"));
  try {
    migrate(drizzle(sqlite), { migrationsFolder: join(import.meta.dirname, "../db/migrations") });
    for (const m of merchants) sqlite.prepare("insert into merchants (id, name, created_at) values (?, ?, ?)").run(m.id, m.name, now);
    const taken = [...seedRows({ ...plan, count: 5 })];
    const first = seedPayments(sqlite, { ...plan, count: 5 });
    assert.equal(first.nextIndex, 5);
    // Rows 0–4 exist now: seeding from 0 again meets them and must still add exactly `count` new rows.
    const again = seedPayments(sqlite, { ...plan, count: 1000 });
    assert.equal(again.nextIndex, 1005);
    const count = sqlite.prepare("select count(*) as n from payments").get() as { n: number };
    assert.equal(count.n, 1005);
    const stored = sqlite.prepare("select answer_json from payments where linking_reference = ?").get(taken[0]?.linkingReference) as {
      answer_json: string;
    };
    assert.equal(JSON.parse(stored.answer_json).linkingReference, taken[0]?.linkingReference);
    assert.equal(sqlite.pragma("journal_mode", { simple: true }), "wal");
    const big = (rows: { merchantId: string; paymentReference: string }[]) =>
      rows.filter((r) => r.merchantId === "mch_big").map((r) => r.paymentReference);
    const expected = [...big([...seedRows(plan)].slice(5)), ...big([...seedRows({ ...plan, firstIndex: 1000, count: 5 })])];
    assert.deepEqual(again.referencesOfFirst, expected);
  } finally {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every bench initiation is a valid request with a reference of its own", () => {
  for (const channel of ["USSD", "TRANSFER"] as const) {
    const next = initiationBodies(channel, "test");
    const again = initiationBodies(channel, "test");
    const bodies = [...Array.from({ length: 100 }, next), ...Array.from({ length: 100 }, again)];
    assert.equal(new Set(bodies.map((b) => b.paymentReference)).size, 200, "a second series of the same scenario repeats no reference");
    for (const b of bodies.slice(0, 3))
      assert.equal(parseInitiateRequest({ ...b, publicKey: "pk_test_x" }, { publicKey: true }).paymentType, channel);
  }
});

test("the profile summary ranks self time by function and by package", () => {
  const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
  const { functions, homes } = hottest(
    {
      nodes: [
        { id: 1, hitCount: 60, callFrame: frame("prepare", "file:///work/main/node_modules/better-sqlite3/lib/methods/wrappers.js") },
        { id: 2, hitCount: 30, callFrame: frame("initiatePayment", "file:///work/main/server/payments/initiate.ts") },
        { id: 3, hitCount: 10, callFrame: frame("(garbage collector)", "") },
      ],
    },
    5,
  );
  assert.deepEqual(homes[0], ["better-sqlite3", 0.6]);
  assert.deepEqual(functions[1], ["initiatePayment server/payments/initiate.ts:10", 0.3]);
  assert.deepEqual(functions[2], ["(garbage collector) (native)", 0.1]);
});

test("the credit legs of one side read as one row: requests summed, rates and cores averaged, the worse leg's latency", () => {
  const first = { ...load("books: sandbox credit (REST)", "owo", 400, 80), cpu: { owo: 0.9, postgres: 0.5 } };
  const second = { ...load("books: sandbox credit (REST)", "owo", 500, 40), cpu: { owo: 1.0, postgres: 0.3 } };
  const row = pooled("books: sandbox credit (REST)", [first, second]);
  assert.equal(row.requests, 9000);
  assert.equal(row.rps, 450);
  assert.deepEqual([row.p50, row.p90, row.p99], [20, 40, 80]);
  assert.deepEqual(row.cpu, { owo: 0.95, postgres: 0.4 });
  assert.throws(() => pooled("none", []), /no leg measured/);
});

test("a credit leg starts from SQLite at rest: settle writes the WAL back and empties it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "owo-bench-settle-"));
  const server = new Database(join(dir, "owo.db"));
  try {
    server.pragma("journal_mode = WAL");
    // A server that stopped without its last close leaves its writes in the WAL; this one stays open, as its reader would.
    server.exec("create table t (x); insert into t values (1), (2)");
    assert.ok(statSync(join(dir, "owo.db-wal")).size > 0);
    await (await openBenchDatabase("sqlite", dir)).settle();
    assert.equal(statSync(join(dir, "owo.db-wal")).size, 0);
    assert.equal((server.prepare("select count(*) as n from t").get() as { n: number }).n, 2);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the p99 bound judges initiations: a credit scenario's queue at 32 connections does not fail it", () => {
  const p99 = (outcomes: Outcome[]) => verdicts(outcomes).find((v) => v.target.includes("p99"));
  const initiation = load("initiate USSD (REST)", "owo", 4000, 20);
  const credit = load("books: sandbox credit (REST)", "owo", 550, 145);
  assert.deepEqual(p99([initiation, credit]), {
    target: "initiate p99 ≤ 50 ms at 32 connections",
    database: "",
    measured: "worst 20 ms (initiate USSD (REST), ×1)",
    met: true,
  });
  assert.equal(p99([load("initiate TRANSFER (REST)", "owo", 4000, 61), credit])?.met, false);
});

test("the credit legs' shop takes the callbacks of the bench merchant's open payments, and of nobody else's", async () => {
  const dir = mkdtempSync(join(tmpdir(), "owo-bench-callbacks-"));
  const sqlite = new Database(join(dir, "owo.db"));
  try {
    migrate(drizzle(sqlite), { migrationsFolder: join(import.meta.dirname, "../db/migrations") });
    for (const m of merchants) sqlite.prepare("insert into merchants (id, name, created_at) values (?, ?, ?)").run(m.id, m.name, now);
    seedPayments(sqlite, { ...plan, count: 60 });
    // The seed's history is closed by now; a third of it open again, of every merchant.
    sqlite.exec("update payments set status = 'PENDING' where id % 3 = 0");
    const shop = "http://127.0.0.1:9/owo/callback";
    const pointed = await (await openBenchDatabase("sqlite", dir)).callbacksTo("mch_big", shop);
    const count = (where: string) => (sqlite.prepare(`select count(*) as n from payments where ${where}`).get() as { n: number }).n;
    assert.ok(pointed > 0);
    assert.equal(pointed, count("merchant_id = 'mch_big' and status = 'PENDING'"));
    assert.equal(count(`callback_url = '${shop}'`), pointed, "only the bench merchant's open payments call the shop");
  } finally {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
