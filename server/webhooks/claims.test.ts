// Claims under contention: workers racing for the same due deliveries (and mailers for the same mail) each take rows
// no other holds, and on PostgreSQL a claimer skips the rows another is claiming instead of waiting for them or
// being run again (FOR UPDATE SKIP LOCKED in read committed, db/functions.ts `skippingLocked`).
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { after, before, test } from "node:test";
import pg from "pg";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { openTransfer, credit } from "../testing/in-process-payments";
import { fannedOutEvent } from "../testing/outbox-events";
import { dialect, write, db } from "../../db/client";
import { deliveries, payments, mails } from "../../db/schema";
import { eq } from "drizzle-orm";
import { retriedTransactions } from "../../db/postgres-store";
import { claimDue } from "./deliveries";
import { claimDueMail, queueMail } from "../mail/outbox";
import { startWorker } from "./worker";
import { startReceiver } from "../testing/receiver";
import { eventually } from "../testing/eventually";
import { clock } from "../clock";

let owo: Owo;
let m: TestMerchant;
let onPostgres: boolean;
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant();
  onPostgres = dialect() === "postgres";
});
after(() => owo.stop());

const LEASE_MS = 60_000;
const HOSTS = 6;
let batches = 0;

/** `count` due deliveries of one payment, spread over HOSTS hosts (ports of 127.0.0.1 nobody listens on). */
async function dueDeliveries(count: number): Promise<number[]> {
  const { paymentReference } = await openTransfer(m.merchantId, "http://127.0.0.1:9/callback");
  const batch = ++batches;
  return write(async (tx) => {
    const [payment] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.paymentReference, paymentReference));
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const outboxId = await fannedOutEvent(tx, {
        eventId: `evt_claims_${process.pid}_${batch}_${i}`,
        paymentId: payment!.id,
        merchantId: m.merchantId,
      });
      const [delivery] = await tx
        .insert(deliveries)
        .values({
          outboxId,
          merchantId: m.merchantId,
          destination: "callback",
          url: `http://127.0.0.1:${10_000 + (i % HOSTS)}/cb/${i}`,
          host: `127.0.0.1:${10_000 + (i % HOSTS)}`,
          status: "pending",
          nextAttemptAt: 1,
          createdAt: 1,
        })
        .returning({ id: deliveries.id });
      ids.push(delivery!.id);
    }
    return ids;
  });
}

/** Ends whatever an earlier case left due, so each case counts only its own rows. */
async function finishAll(): Promise<void> {
  await write(async (tx) => {
    await tx.update(deliveries).set({ status: "cancelled", finishedAt: 1 }).where(eq(deliveries.status, "pending"));
    await tx.update(mails).set({ status: "failed" }).where(eq(mails.status, "pending"));
  });
}

/** Serialization retries so far in this process (none on SQLite, where transactions run one at a time). */
async function retries(): Promise<number> {
  return onPostgres ? retriedTransactions() : 0;
}

test("eight workers racing for 120 due deliveries take disjoint sets, every one of them, and none is run again", async (t) => {
  await finishAll();
  const due = await dueDeliveries(120);
  const before = await retries();
  const claimed = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const mine: number[] = [];
      // As a worker's loop does: claim again until a claim comes back empty (every due row then is someone's).
      for (;;) {
        const got = await claimDue({ free: 5, freeForHost: () => 4 }, LEASE_MS);
        if (got.length === 0) return mine;
        mine.push(...got.map((d) => d.id));
      }
    }),
  );
  const all = claimed.flat();
  t.diagnostic(`claims per worker: ${claimed.map((c) => c.length).join(", ")}; serialization retries: ${(await retries()) - before}`);
  assert.equal(new Set(all).size, all.length, "no delivery was claimed by two workers");
  assert.deepEqual(
    [...all].sort((a, b) => a - b),
    due,
    "between them the workers claimed every due delivery",
  );
  assert.equal((await retries()) - before, 0, "no claim was run again after a serialization failure");
});

/** A second PostgreSQL session, as another worker's claim is: it locks `ids` and keeps them until `release`. */
async function anotherClaimer(table: "deliveries" | "mails", ids: number[]): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: owo.databaseUrl });
  await client.connect();
  await client.query("begin");
  await client.query(`select id from ${table} where id = any($1::bigint[]) for update`, [ids]);
  return {
    release: async () => {
      await client.query("rollback");
      await client.end();
    },
  };
}

test("a worker whose claim holds some due deliveries does not hold another back: it takes the rest at once", async (t) => {
  if (!onPostgres) return t.skip("SQLite has no row locks: its claims run one at a time (BEGIN IMMEDIATE)");
  await finishAll();
  const due = await dueDeliveries(12);
  const held = due.slice(0, 6);
  const other = await anotherClaimer("deliveries", held);
  try {
    const started = performance.now();
    const got = (await claimDue({ free: 32, freeForHost: () => 4 }, LEASE_MS)).map((d) => d.id).sort((a, b) => a - b);
    const ms = performance.now() - started;
    t.diagnostic(`claimed ${got.length} beside the held ones in ${Math.round(ms)} ms`);
    assert.deepEqual(got, due.slice(6), "the rows the other claim holds are skipped, the others taken");
    assert.ok(ms < 1_000, `the claim did not wait for the other one (${Math.round(ms)} ms)`);
  } finally {
    await other.release();
  }
  const rest = (await claimDue({ free: 32, freeForHost: () => 4 }, LEASE_MS)).map((d) => d.id).sort((a, b) => a - b);
  assert.deepEqual(rest, held, "once the other claim let go of its rows, they are claimed");
});

test("a mailer whose claim holds some due mail does not hold another back", async (t) => {
  if (!onPostgres) return t.skip("SQLite has no row locks: its claims run one at a time (BEGIN IMMEDIATE)");
  await finishAll();
  const ids = await write(async (tx) => {
    for (let i = 0; i < 6; i++)
      await queueMail(tx, { to: `claims${i}@example.com` }, { kind: "test", subject: `mail ${i}`, text: "hello", html: "<p>hello</p>" }, 1);
    return (await tx.select({ id: mails.id }).from(mails))
      .map((r) => r.id)
      .sort((a, b) => a - b)
      .slice(-6);
  });
  const other = await anotherClaimer("mails", ids.slice(0, 3));
  try {
    const started = performance.now();
    const got = (await claimDueMail(8, LEASE_MS)).map((c) => c.id).sort((a, b) => a - b);
    const ms = performance.now() - started;
    assert.deepEqual(got, ids.slice(3), "the mail the other claim holds is skipped, the rest taken");
    assert.ok(ms < 1_000, `the claim did not wait for the other one (${Math.round(ms)} ms)`);
  } finally {
    await other.release();
  }
});

test("an attempt that ends while its lease is being renewed is recorded under the renewed lease, and sent once", async (t) => {
  if (!onPostgres) return t.skip("on SQLite a renewal never yields to network I/O, so no attempt can end while one is under way");
  await finishAll();
  // Another session holds the delivery's row from its first request until after the answer: the worker's next renewal
  // (every second under a 3 s lease) waits on it, and the 200 arrives while that renewal is still under way.
  let other: Promise<{ release: () => Promise<void> }> | undefined;
  const receiver = await startReceiver((r) => {
    other ??= anotherClaimerOf(r.path);
    return { status: 200, afterMs: 1_300 };
  });
  const callbackUrl = receiver.url(`/race/${process.pid}`);
  const anotherClaimerOf = async (path: string) => {
    const [row] = await db()
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(eq(deliveries.url, receiver.url(path)));
    return anotherClaimer("deliveries", [row!.id]);
  };
  const worker = startWorker({ leaseMs: 3_000, backoffScale: 0.001, allowPrivate: true, pollMs: 50 });
  try {
    const { accountNumber } = await openTransfer(m.merchantId, callbackUrl);
    await credit(accountNumber);
    await eventually("the callback's request", () => receiver.received.length > 0, 5_000);
    await new Promise((r) => setTimeout(r, 1_600));
    await (await other)?.release();
    const [delivery] = await eventually(
      "the delivery to end",
      async () => {
        const rows = await db().select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.url, callbackUrl));
        return rows[0]?.status !== "pending" && rows;
      },
      3_000,
    );
    assert.equal(delivery?.status, "delivered", "the 200 was recorded under the renewed lease, ending the delivery");
    // Had it found its lease lost, the delivery would have been claimed and sent again once the renewed lease ran out:
    // a claim pass run here from past that moment takes nothing for it.
    const pastTheLease = await claimDue({ free: 32, freeForHost: () => 4 }, 3_000, clock.now() + 10_000);
    assert.deepEqual(
      pastTheLease.filter((c) => c.url === callbackUrl),
      [],
    );
    assert.equal(receiver.received.length, 1, "the callback was sent once");
  } finally {
    await worker.stop();
    await receiver.stop();
  }
});
