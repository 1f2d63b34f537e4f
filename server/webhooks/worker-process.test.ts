// The standalone worker (`npm run worker`) as a real process: a SIGKILLed worker's delivery is taken over
// after its lease; a SIGTERMed one hands its lease back at once.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, afterEach, before, test } from "node:test";
import { eq } from "drizzle-orm";
import { db } from "../../db/client";
import { deliveries, outbox, payments } from "../../db/schema";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { eventually } from "../testing/eventually";
import { credit, openTransfer } from "../testing/in-process-payments";
import { startReceiver, type Receiver } from "../testing/receiver";

let owo: Owo;
let m: TestMerchant;
const receivers: Receiver[] = [];
const children: ChildProcess[] = [];
before(async () => {
  // This process only writes payments; the spawned workers send the callbacks.
  owo = await startOwo({ OWO_WORKER: "off" });
  m = await createTestMerchant();
});
// Each test starts from no running worker, so only the workers it spawns can send.
afterEach(async () => {
  const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
  for (const c of running) c.kill("SIGKILL");
  await Promise.all(running.map(exited));
  moveWorkersClock(0);
});

/** The spawned workers read Owo's clock moved by this much (server/clock.ts: OWO_TEST_CLOCK_FILE under NODE_ENV=test). */
function moveWorkersClock(offsetMs: number): void {
  writeFileSync(join(owo.dataDir, "clock-offset"), String(offsetMs));
}
after(async () => {
  await owo.stop();
  await Promise.all(receivers.map((r) => r.stop()));
});

/** A worker process; `started` settles once it has logged that it runs, so its first poll is under way. */
function spawnWorker(leaseSeconds: number): ChildProcess & { started: Promise<void> } {
  const child = spawn(process.execPath, ["--import", "tsx", "server/webhooks/worker-main.ts"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: "test",
      OWO_TEST_CLOCK_FILE: join(owo.dataDir, "clock-offset"),
      DATABASE_URL: owo.databaseUrl,
      OWO_WORKER_LEASE_SECONDS: String(leaseSeconds),
      OWO_ALLOW_PRIVATE_CALLBACKS: "1",
      OWO_WEBHOOK_BACKOFF_SCALE: "0.0005",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  let out = "";
  const started = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("callback worker started")) resolve();
    });
    child.once("exit", () => reject(new Error(`the worker exited before it started:\n${out}`)));
  });
  started.catch(() => undefined); // a test that never awaits it must not fail on a worker it killed
  return Object.assign(child, { started });
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });

async function deliveryOf(paymentReference: string) {
  return (
    await db()
      .select({
        id: deliveries.id,
        status: deliveries.status,
        leaseUntil: deliveries.leaseUntil,
        attemptCount: deliveries.attemptCount,
        eventId: outbox.eventId,
      })
      .from(deliveries)
      .innerJoin(outbox, eq(outbox.id, deliveries.outboxId))
      .innerJoin(payments, eq(payments.id, outbox.paymentId))
      .where(eq(payments.paymentReference, paymentReference))
  )[0];
}

/** A transfer whose callbacks go to a new receiver answering `answer`; not yet paid. */
async function transferCallingBack(answer: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return { r, ...(await openTransfer(m.merchantId, r.url())) };
}

/** A worker that has made its one attempt is told to stop, and exits cleanly. */
async function sigtermMidAttempt(r: Receiver) {
  const worker = spawnWorker(60);
  await eventually("the attempt", () => r.received.length === 1, 20_000);
  worker.kill("SIGTERM");
  assert.deepEqual(await exited(worker), { code: 0, signal: null });
}

test("a worker killed mid-attempt loses its delivery to the next worker after the lease: delivered, same webhook-id", async () => {
  // The first request is held open, as if the receiver were slow, while the worker dies.
  const { r, paymentReference, accountNumber } = await transferCallingBack((_req, i) => (i === 0 ? "hang" : 200));
  await credit(accountNumber);

  const first = spawnWorker(60);
  await eventually("the first worker's attempt", () => r.received.length === 1, 20_000);
  const claimed = await deliveryOf(paymentReference);
  assert.equal(claimed?.status, "pending");
  assert.ok(claimed?.leaseUntil, "leased by the first worker");
  first.kill("SIGKILL");
  assert.equal((await exited(first)).signal, "SIGKILL");
  assert.equal((await deliveryOf(paymentReference))?.attemptCount, 0, "the dead worker recorded nothing");

  // The dead worker's 60 s lease runs out on the clock, not by waiting a minute.
  moveWorkersClock(61_000);
  spawnWorker(60);
  const done = await eventually(
    "delivery by the second worker",
    async () => {
      const d = await deliveryOf(paymentReference);
      return d?.status === "delivered" && d;
    },
    20_000,
  );
  assert.equal(done.attemptCount, 1);
  assert.equal(r.received.length, 2);
  assert.deepEqual(
    r.received.map((x) => x.headers["webhook-id"]),
    [done.eventId, done.eventId],
  );
  assert.equal(r.received[0]?.body, r.received[1]?.body);
});

test("SIGTERM: an attempt that answers in time is finished and recorded before the worker exits", async () => {
  const { r, paymentReference, accountNumber } = await transferCallingBack(() => ({ status: 200, afterMs: 700 }));
  await credit(accountNumber);
  await sigtermMidAttempt(r);
  assert.equal((await deliveryOf(paymentReference))?.status, "delivered");
});

test("SIGTERM: an attempt still unanswered after the grace period hands its lease back, and the next worker need not wait for it", async () => {
  const { r, paymentReference, accountNumber } = await transferCallingBack((_req, i) => (i === 0 ? "hang" : 200));
  await credit(accountNumber);
  await sigtermMidAttempt(r);
  const released = await deliveryOf(paymentReference);
  assert.deepEqual([released?.status, released?.leaseUntil, released?.attemptCount], ["pending", null, 0]);

  const started = Date.now();
  spawnWorker(60);
  await eventually("delivery by the next worker", async () => (await deliveryOf(paymentReference))?.status === "delivered", 20_000);
  assert.ok(Date.now() - started < 30_000, "well inside the 60 s lease");
  assert.equal(r.received.length, 2);
});

test("two live workers never send the same delivery twice, even when an attempt outlasts the lease", async () => {
  const { r, paymentReference, accountNumber } = await transferCallingBack(() => ({ status: 200, afterMs: 2500 }));
  const workers = [spawnWorker(1), spawnWorker(1)];
  await Promise.all(workers.map((w) => w.started)); // both workers are polling
  await credit(accountNumber);
  await eventually("delivery", async () => (await deliveryOf(paymentReference))?.status === "delivered", 20_000);
  assert.equal(r.received.length, 1);
  assert.equal((await deliveryOf(paymentReference))?.attemptCount, 1);
});
