/**
 * `npx tsx bench/rate-limit-cost.ts [--durable] [--rounds=N] [--seconds=N]`: what the shared rate budgets
 * (server/limits/shared-budgets.ts) cost each request on PostgreSQL. First the statement alone, on the table as shipped
 * (unlogged) and as a logged one would be: one caller after another, then 16 at once on one merchant's row and on 16
 * rows. Then one Owo instance over HTTP with the merchant limit off, on (budgets that never run out, taken a few tokens
 * at a time or one by one) and on and refusing (1 a second), alternated, each one's best round kept. `--durable`: a PostgreSQL that syncs its WAL at commit, as production does.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import pg from "pg";
import { startPostgres } from "../db/throwaway-postgres";
import { TEST_ENV } from "../server/testing/harness";
import { spawnOwo } from "../server/testing/processes";

const flag = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const durable = process.argv.includes("--durable");
const ROUNDS = flag("rounds", 3);
const SECONDS = flag("seconds", 8);
const CONNECTIONS = 16;

const server = await startPostgres({ durable });
const dataDir = mkdtempSync(join(tmpdir(), "owo-rate-cost-"));
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
await admin.query("create database owo_rate_cost");
await admin.end();
const url = server.databaseUrl("owo_rate_cost");
const secrets = { AUTH_SECRET: randomBytes(32).toString("hex"), OWO_MASTER_KEY: randomBytes(32).toString("hex") };
Object.assign(process.env, TEST_ENV, secrets, { DATABASE_URL: url, OWO_DATA_DIR: dataDir });
const migrated = spawnSync(process.execPath, ["--import", "tsx", "db/migrate-cli.ts"], { env: process.env, encoding: "utf8" });
if (migrated.status !== 0) throw new Error(`db:migrate failed:\n${migrated.stdout}${migrated.stderr}`);
console.log(`PostgreSQL ${durable ? "syncing its WAL at commit (fsync, synchronous_commit on)" : "as the tests run it (fsync off)"}`);

const { SharedBudgets } = await import("../server/limits/shared-budgets");
const { closeDatabase } = await import("../db/client");
// A burst under 40 takes one token a statement; refilled at 100,000 a second it never runs out here.
const budgets = new SharedBudgets(100_000, 39);

async function statementAlone(kind: "unlogged" | "logged"): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`alter table rate_budgets set ${kind}`);
  await client.end();
  for (let i = 0; i < 300; i++) await budgets.take("merchant:warm:test");
  const times: number[] = [];
  for (let i = 0; i < 3000; i++) {
    const started = performance.now();
    await budgets.take("merchant:one:test");
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => (times[Math.floor(q * (times.length - 1))] ?? 0).toFixed(2);
  const rates = [];
  for (const keys of [1, CONNECTIONS]) {
    const started = performance.now();
    let taken = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, caller) => {
        while (performance.now() - started < 3000) {
          await budgets.take(`merchant:hot${caller % keys}:test`);
          taken++;
        }
      }),
    );
    rates.push(`${Math.round(taken / ((performance.now() - started) / 1000))}/s on ${keys} row${keys > 1 ? "s" : ""}`);
  }
  console.log(
    `${kind.padEnd(8)} one take after another: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; ${CONNECTIONS} at once: ${rates.join(", ")}`,
  );
}

await statementAlone("logged");
await statementAlone("unlogged");

const { createMerchant } = await import("../server/merchants/create-merchant");
const { exchangeKeys } = await import("../server/auth/access-tokens");
const m = await createMerchant({
  name: "Rate cost",
  email: "rate-cost@example.com",
  password: "correct horse battery",
  emailVerified: true,
});
const token = (await exchangeKeys({ key: `${m.secretKey}.${m.publicKey}` })).token;
// Two token requests: one that reads nothing from the database (its token is cached), where the limiter's statement is
// all the database work, and one that reads a payment (none found: 404), like verify.
const paths = { "no read": `/api/v2/banks/merchant/${m.publicKey}`, "one read": "/api/v3/payments/query/none" };
// Budgets refilled faster than the requests come, with the default burst (taken 5 at a time) and the largest burst
// still taken one token a statement (39).
const limits = {
  off: { OWO_RATE_LIMIT_RPS: "0" },
  "on, burst 100": { OWO_RATE_LIMIT_RPS: "100000", OWO_RATE_LIMIT_BURST: "100" },
  "on, burst 39": { OWO_RATE_LIMIT_RPS: "100000", OWO_RATE_LIMIT_BURST: "39" },
  "on, refusing": { OWO_RATE_LIMIT_RPS: "1", OWO_RATE_LIMIT_BURST: "1" },
};
type Measured = { rps: number; p50: number; p99: number; statuses: string };
const best = new Map<string, Measured>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const [limit, env] of Object.entries(limits)) {
    const owo = await spawnOwo(url, { ...secrets, OWO_DATA_DIR: dataDir, OWO_WORKER: "off", LOG_LEVEL: "warn", ...env });
    for (const [name, path] of Object.entries(paths)) {
      const request = { method: "GET", path, headers: { authorization: `Bearer ${token}` } };
      await autocannon({ url: owo.url, connections: CONNECTIONS, duration: 2, requests: [request] });
      const r = await autocannon({ url: owo.url, connections: CONNECTIONS, duration: SECONDS, requests: [request] });
      const statuses = Object.entries(r.statusCodeStats)
        .map(([code, { count }]) => `${count} × ${code}`)
        .join(", ");
      const measured = { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, statuses };
      const label = `${name.padEnd(8)} limit ${limit.padEnd(13)}`;
      console.log(
        `round ${round}: ${label} ${measured.rps.toFixed(0).padStart(5)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms (${statuses}, ${r.errors} errors)`,
      );
      if (measured.rps > (best.get(label)?.rps ?? 0)) best.set(label, measured);
    }
    owo.child.kill("SIGTERM");
    await owo.exited;
  }
}
console.log(`\nbest of ${ROUNDS} rounds, ${CONNECTIONS} connections, one instance:`);
for (const [label, b] of [...best].sort(([a], [z]) => a.localeCompare(z)))
  console.log(`  ${label} ${b.rps.toFixed(0).padStart(5)} req/s, p50 ${b.p50} ms, p99 ${b.p99} ms`);
await closeDatabase();
server.stop();
rmSync(dataDir, { recursive: true, force: true });
