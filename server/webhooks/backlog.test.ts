// A merchant whose endpoint has been down for a day leaves thousands of deliveries due to one host. A claim still
// offers every other host its oldest due at once, and it finds them by index: it reads a few rows per host, never the
// backlog (it used to rank every due delivery, inside the writer's turn on SQLite).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import pg from "pg";
import { db, dialect, rawSqlite, write } from "../../db/client";
import { deliveries, payments } from "../../db/schema";
import { clock } from "../clock";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { openTransfer } from "../testing/in-process-payments";
import { fannedOutEvent } from "../testing/outbox-events";
import { addressOf, claimDue, dueCandidates } from "./deliveries";

const BACKLOG = 3_000;
const OTHER_HOSTS = 5;
let owo: Owo;
let backlog: number[] = [];
let others: number[] = [];

/** Pending deliveries of one event to `urls`, due at `dueAt(i)`; answers their ids. */
async function pending(merchantId: string, paymentId: number, urls: string[], dueAt: (i: number) => number): Promise<number[]> {
  return write(async (tx) => {
    const outboxId = await fannedOutEvent(tx, { eventId: `evt_backlog_${urls.length}_${dueAt(0)}`, paymentId, merchantId });
    const rows = urls.map((url, i) => ({
      outboxId,
      merchantId,
      destination: "callback" as const,
      ...addressOf(url),
      status: "pending" as const,
      nextAttemptAt: dueAt(i),
      createdAt: 1,
    }));
    const ids: number[] = [];
    // In slices: SQLite takes at most 32,766 values in one statement.
    for (let at = 0; at < rows.length; at += 500)
      ids.push(
        ...(
          await tx
            .insert(deliveries)
            .values(rows.slice(at, at + 500))
            .returning({ id: deliveries.id })
        ).map((r) => r.id),
      );
    return ids;
  });
}

before(async () => {
  owo = await startOwo();
  const m = await createTestMerchant();
  const { paymentReference } = await openTransfer(m.merchantId, "http://127.0.0.1:9/callback");
  const [payment] = await write((tx) =>
    tx.select({ id: payments.id }).from(payments).where(eq(payments.paymentReference, paymentReference)),
  );
  const down = Array.from({ length: BACKLOG }, (_, i) => `https://down.example.ng/owo/callback/${i}`);
  backlog = await pending(m.merchantId, payment!.id, down, (i) => 1_000 + i);
  // Every other host's delivery is younger than the whole backlog.
  const elsewhere = Array.from({ length: OTHER_HOSTS }, (_, i) => `https://shop${i}.example.ng/owo/callback`);
  others = await pending(m.merchantId, payment!.id, elsewhere, (i) => 100_000 + i);
});
after(() => owo.stop());

test("under one host's backlog of 3,000, a claim takes that host's 4 oldest and every other host's due delivery", async () => {
  const claimed = await claimDue({ free: 20, freeForHost: () => 4 }, 60_000, clock.now());
  assert.deepEqual(
    claimed.map((d) => d.id).sort((a, b) => a - b),
    [...backlog.slice(0, 4), ...others],
  );
  // Leased now: the next claim goes on down the backlog, four at a time.
  const next = await claimDue({ free: 20, freeForHost: () => 4 }, 60_000, clock.now());
  assert.deepEqual(
    next.map((d) => d.id).sort((a, b) => a - b),
    backlog.slice(4, 8),
  );
});

/** Rows each node read from the deliveries table, as PostgreSQL's EXPLAIN ANALYZE counts them (filtered ones too). */
type PlanNode = {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};
const rowsRead = (n: PlanNode): number =>
  (n["Relation Name"] === "deliveries" ? ((n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0)) * (n["Actual Loops"] ?? 1) : 0) +
  (n.Plans ?? []).reduce((sum, p) => sum + rowsRead(p), 0);

test("a claim's candidates are read by index, a few rows per host, however long the backlog", async () => {
  // The query as the claim builds it, explained instead of run.
  const { sql, params } = dueCandidates(db(), clock.now()).toSQL();
  if (dialect() === "sqlite") {
    const plan = (
      rawSqlite()
        .prepare(`explain query plan ${sql}`)
        .all(...params) as { detail: string }[]
    ).map((r) => r.detail);
    // Each read of the table is a seek: by rowid, or along deliveries_due_by_host to the next host or a host's oldest due.
    const reads = plan.filter((d) => /^(SCAN|SEARCH) (?!hosts)/.test(d));
    assert.ok(reads.length > 0, plan.join("\n"));
    for (const read of reads) assert.match(read, /INTEGER PRIMARY KEY|INDEX deliveries_due_by_host($| \(host[=>]\?)/, plan.join("\n"));
    return;
  }
  const client = new pg.Client({ connectionString: owo.databaseUrl });
  await client.connect();
  try {
    await client.query("analyze deliveries");
    const [row] = (await client.query(`explain (analyze, format json) ${sql}`, params)).rows as { "QUERY PLAN": [{ Plan: PlanNode }] }[];
    if (process.env.PLAN) console.log((await client.query(`explain (analyze) ${sql}`, params)).rows.map((r) => r["QUERY PLAN"]).join("\n"));
    const read = rowsRead(row!["QUERY PLAN"][0].Plan);
    // Per host: the seek to it and its oldest few; then each candidate by id.
    assert.ok(read <= (OTHER_HOSTS + 2) * 10, `a claim read ${read} deliveries under a backlog of ${BACKLOG}`);
  } finally {
    await client.end();
  }
});
