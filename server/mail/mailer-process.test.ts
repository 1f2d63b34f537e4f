// `npm run worker` restarted with mail queued: every mail reaches the SMTP server once (a SIGKILL can repeat only what was in flight).
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { after, before, test } from "node:test";
import { eventually } from "../testing/eventually";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { userClient } from "../testing/sessions";
import { startTestSmtp, type TestSmtp } from "../testing/smtp";
import { inArray } from "drizzle-orm";
import { db } from "../../db/client";
import { mails } from "../../db/schema";
import { claimDueMail } from "./outbox";
import { clock } from "../clock";

let owo: Owo;
let smtp: TestSmtp;
const children: ChildProcess[] = [];

before(async () => {
  // Each accepted message takes a while, so a worker stopped mid-queue leaves mail behind.
  smtp = await startTestSmtp({ acceptDelayMs: 150 });
  owo = await startOwo({ OWO_WORKER: "off" });
});
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await owo.stop();
  await smtp.stop();
});

function spawnWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "server/webhooks/worker-main.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: owo.databaseUrl,
      OWO_SMTP_URL: smtp.url,
      OWO_WORKER_LEASE_SECONDS: "2",
      OWO_WEBHOOK_BACKOFF_SCALE: "0.01",
      LOG_LEVEL: process.env.OWO_TEST_LOG_LEVEL ?? "silent",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));

async function queueInvites(prefix: string, count: number): Promise<string[]> {
  const m = await createTestMerchant(`${prefix} Stores`);
  const owner = await userClient(owo, m.userId);
  const to = [m.email];
  for (let i = 0; i < count; i++) {
    to.push(`${prefix}${i}@example.com`);
    await owner.team.invite.mutate({ role: "viewer", email: `${prefix}${i}@example.com` });
  }
  return to; // the owner's welcome mail, then the invites
}

const received = (to: string[]) => smtp.mails.filter((x) => to.includes(x.to));

/**
 * Every mail to `to` recorded sent, so nothing is left to send again: a claim pass run here from past any lease (the
 * workers' own pass) takes none of them. Waits for the record, not for time to pass.
 */
async function noneLeftToSend(to: string[]): Promise<void> {
  await eventually(
    "every mail recorded sent",
    async () =>
      (await db().select({ status: mails.status }).from(mails).where(inArray(mails.toAddress, to))).every((r) => r.status === "sent"),
    30_000,
  );
  const claimed = await claimDueMail(100, 2_000, clock.now() + 60_000);
  assert.deepEqual(
    claimed.filter((c) => to.includes(c.to)),
    [],
  );
}

test("a worker restarted (SIGTERM) with mail queued: the next one sends the rest, every mail exactly once", async () => {
  const to = await queueInvites("restart", 30);
  const first = spawnWorker();
  await eventually("three mails at the test SMTP server", () => received(to).length >= 3, 30_000);
  first.kill("SIGTERM");
  await exited(first);
  const afterFirst = received(to).length;
  assert.ok(afterFirst < to.length, `mail is still queued when the worker stops (${afterFirst} of ${to.length} sent)`);

  const second = spawnWorker();
  await eventually("every mail at the test SMTP server", () => received(to).length >= to.length, 30_000);
  await noneLeftToSend(to);
  second.kill("SIGTERM");
  await exited(second);
  const ids = received(to).map((x) => x.messageId);
  assert.equal(ids.length, to.length, "no mail sent twice");
  assert.equal(new Set(ids).size, to.length);
  for (const address of to) assert.equal(received([address]).length, 1, `${address} got its mail once`);
});

test("a worker killed (SIGKILL) mid-send: its mail is sent after the lease; only a mail the server had already taken is repeated, with the same Message-ID", async () => {
  const to = await queueInvites("killed", 20);
  const first = spawnWorker();
  await eventually("three mails at the test SMTP server", () => received(to).length >= 3, 30_000);
  first.kill("SIGKILL");
  await exited(first);
  assert.ok(received(to).length < to.length, "mail is still queued after the kill");

  const second = spawnWorker();
  await eventually("a mail to every address", () => new Set(received(to).map((x) => x.to)).size >= to.length, 30_000);
  await noneLeftToSend(to);
  second.kill("SIGTERM");
  await exited(second);
  for (const address of to) assert.ok(received([address]).length >= 1, `${address} got its mail`);
  const all = received(to);
  // Repeats are possible only for mail in flight at the kill (at most one batch of 8), and a receiver can drop them by Message-ID.
  assert.ok(all.length - to.length <= 8, `${all.length - to.length} repeats`);
  assert.equal(new Set(all.map((x) => x.messageId)).size, to.length, "each address's mail keeps one Message-ID");
});
