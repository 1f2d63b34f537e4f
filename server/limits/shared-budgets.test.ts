// Where the rate budgets live (server/limits/rate-limits.ts): on PostgreSQL in the database, one budget for every
// instance, refilled by the database's clock and forgotten by the sweeper once full; on SQLite in the process's memory.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { databaseIn, spawnOwo, type OwoProcess } from "../testing/processes";
import { call, createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { exchangeKeys } from "../auth/access-tokens";
import { db } from "../../db/client";
import { rateBudgets } from "../../db/schema";
import { onPostgres as withClient } from "../../db/throwaway-postgres";
import { moveClock } from "../clock";
import { forgetFullRateBudgets } from "./rate-limits";
import { SharedBudgets } from "./shared-budgets";

// One token in 5 s: the requests that must land within one refill interval do so even on a loaded machine.
const LIMITS = { OWO_RATE_LIMIT_RPS: "0.2", OWO_RATE_LIMIT_BURST: "4", OWO_IP_RATE_LIMIT_PER_MIN: "0", OWO_SWEEP_INTERVAL_SECONDS: "1" };
const onPostgres = Boolean(process.env.OWO_TEST_POSTGRES_URL);

let owo: Owo;
let m: TestMerchant;
before(async () => {
  owo = await startOwo(LIMITS);
  m = await createTestMerchant();
});
after(() => owo.stop());

/** A bearer token minted in this process, so that the key exchange's own (per-IP) limit stays out of the count. */
async function tokenOf(merchant: TestMerchant): Promise<string> {
  return (await exchangeKeys({ key: `${merchant.secretKey}.${merchant.publicKey}` })).token;
}

const query = (at: Pick<Owo, "url">, bearer: string) => call(at, "GET", "/api/v3/payments/query/none", { token: bearer });

async function budgetRows(): Promise<{ key: string; granted: boolean }[]> {
  return db().select({ key: rateBudgets.key, granted: rateBudgets.granted }).from(rateBudgets);
}

test(
  "two instances draw on one budget: the headers count down across them, the 5th is 429, and it refills at one token in 5 s",
  { skip: onPostgres ? false : "on SQLite one process serves a file; its budgets are its own (see the next test)" },
  async (t) => {
    // The second instance follows this test's clock through the clock file (server/clock.ts, NODE_ENV=test only).
    const clockFile = join(owo.dataDir, "clock-offset");
    const second: OwoProcess = await spawnOwo(databaseIn(owo.dataDir), {
      ...LIMITS,
      OWO_WORKER: "off",
      NODE_ENV: "test",
      OWO_TEST_CLOCK_FILE: clockFile,
    });
    t.after(async () => {
      second.child.kill("SIGKILL");
      await second.exited;
    });
    const bearer = await tokenOf(m);
    const answers = [];
    for (const at of [owo, second, owo, second, owo]) answers.push(await query(at, bearer));
    assert.deepEqual(
      answers.map((a) => a.status),
      [404, 404, 404, 404, 429],
    );
    assert.deepEqual(
      answers.map((a) => a.headers.get("x-ratelimit-remaining")),
      ["3", "2", "1", "0", "0"],
    );
    for (const a of answers) assert.equal(a.headers.get("x-ratelimit-limit"), "4");
    const limited = answers[4];
    assert.equal(limited?.json.data.code, "S429");
    assert.equal(limited?.headers.get("retry-after"), "5");
    assert.equal(limited?.headers.get("x-ratelimit-reset"), "20", "4 tokens missing at one in 5 s");
    writeFileSync(clockFile, "5100");
    const refilled = await query(second, bearer);
    assert.equal(refilled.status, 404, "one token back after 5 s, on the other instance too");
    assert.equal(refilled.headers.get("x-ratelimit-remaining"), "0");
  },
);

test("a budget is a row only while it is short of full: the sweeper forgets it once refilled (on SQLite, no row at all)", async () => {
  const other = await createTestMerchant();
  const bearer = await tokenOf(other);
  const key = `merchant:${other.merchantId}:test`;
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await query(owo, bearer)).status);
  assert.deepEqual(statuses, [404, 404, 404, 404, 429], "the budget is enforced on either dialect");
  if (!onPostgres) {
    assert.deepEqual(await budgetRows(), [], "SQLite keeps budgets in memory: no write per request");
    return;
  }
  assert.deepEqual(
    (await budgetRows()).filter((r) => r.key === key),
    [{ key, granted: false }],
  );
  const persistence = await withClient(owo.databaseUrl, (client) =>
    client.query<{ relpersistence: string }>("select relpersistence from pg_class where relname = 'rate_budgets'"),
  );
  assert.deepEqual(persistence.rows, [{ relpersistence: "u" }], "unlogged: a budget's write waits for no disk");
  // Empty now, full 20 s from now: the sweeper's pass must keep it until then, and drop it after.
  moveClock(13000);
  try {
    await forgetFullRateBudgets();
    assert.equal((await budgetRows()).filter((r) => r.key === key).length, 1, "kept while it still holds the spent tokens");
    moveClock(10000);
    await forgetFullRateBudgets();
    assert.equal((await budgetRows()).filter((r) => r.key === key).length, 0, "a full budget is forgotten");
    assert.equal((await query(owo, bearer)).headers.get("x-ratelimit-remaining"), "3", "and a forgotten budget is a full one");
  } finally {
    moveClock(-23000);
  }
});

test(
  "a refusal is remembered by the instance until the next token is due: a client past its limit costs no write per request",
  { skip: onPostgres ? false : "PostgreSQL's store only" },
  async () => {
    const budgets = new SharedBudgets(0.2, 2);
    const key = "ip:203.0.113.9";
    assert.deepEqual(
      [(await budgets.take(key)).allowed, (await budgets.take(key)).allowed, (await budgets.take(key)).allowed],
      [true, true, false],
    );
    // Were the next take to ask the database, it would find no row, which is a full budget, and grant.
    await db().delete(rateBudgets);
    const again = await budgets.take(key);
    assert.equal(again.allowed, false);
    assert.equal(again.remaining, 0);
    assert.equal(again.retryAfterSeconds, 5);
    assert.equal(again.resetSeconds, 10);
    assert.equal((await budgets.take(key, Date.now() + 5000)).allowed, true, "once the token is due, the database is asked again");
  },
);

test(
  "a budget with plenty left is taken a few tokens at a time: one write serves several requests, the headers still count one by one, and two instances together never exceed it",
  { skip: onPostgres ? false : "PostgreSQL's store only" },
  async () => {
    const a = new SharedBudgets(50, 100);
    const key = "merchant:batched:test";
    const remaining: number[] = [];
    for (let i = 0; i < 2; i++) remaining.push((await a.take(key)).remaining);
    // The second took 5 at once (99 left is plenty): with the row gone, the next 4 are still handed out, and no row comes back.
    await db().delete(rateBudgets);
    for (let i = 0; i < 4; i++) remaining.push((await a.take(key)).remaining);
    assert.deepEqual(await db().select().from(rateBudgets), [], "the 4 came from the instance's own spare");
    remaining.forEach((r, i) =>
      assert.ok(r >= 99 - i && r <= 100 - i, `remaining ${remaining.join(", ")}: one less each time (give or take a refill)`),
    );

    // Two instances draining one budget at once: never more than it and its refill, and little of it left unspent.
    const b = new SharedBudgets(50, 100);
    const both = "merchant:drained:test";
    const started = Date.now();
    const granted = (
      await Promise.all(
        Array.from({ length: 16 }, async (_, i) => {
          let n = 0;
          for (let j = 0; j < 20; j++) if ((await (i % 2 ? a : b).take(both)).allowed) n++;
          return n;
        }),
      )
    ).reduce((x, y) => x + y, 0);
    const refill = ((Date.now() - started) / 1000) * 50;
    assert.ok(granted <= 100 + refill + 1, `${granted} granted from a budget of 100 and ${refill.toFixed(1)} refilled`);
    assert.ok(granted >= 100 - 2 * 4, `${granted} granted: at most 4 spare tokens an instance go unspent`);
  },
);
