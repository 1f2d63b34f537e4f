// Crash suite: SIGKILL the production server under load, restart, and check that nothing acknowledged was lost or half-written.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { freePort, tempDataDir, tokenFor } from "../testing/harness";
import { cliMerchant, runCli, databaseIn, spawnOwo, type OwoProcess } from "../testing/processes";

const ROUNDS = Number(process.env.OWO_CRASH_ROUNDS ?? 3);
const dataDir = tempDataDir();
after(() => rmSync(dataDir, { recursive: true, force: true }));

type Acknowledged = { body: string; answer: string; reference: string };

async function post(url: string, token: string, body: string): Promise<{ status: number; text: string } | null> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body,
    });
    return { status: res.status, text: await res.text() };
  } catch {
    return null; // the server died mid-request: not acknowledged
  }
}

function checkDatabase(): void {
  const db = new Database(join(dataDir, "owo.db"), { readonly: true });
  try {
    assert.equal((db.prepare("pragma integrity_check").get() as { integrity_check: string }).integrity_check, "ok");
    assert.deepEqual(
      db.prepare("select payment_reference from payments group by merchant_id, mode, payment_reference having count(*) > 1").all(),
      [],
    );
    // A reservation cut off mid-issue was never answered: it is no payment (a retry or the sweeper removes it).
    const payments = db
      .prepare(
        "select id, status, event_sequence, amount_paid_kobo + amount_to_refund_kobo as money from payments where reserved_at is null",
      )
      .all() as { id: number; status: string; event_sequence: number; money: number }[];
    const events = db.prepare("select payment_id, sequence, type, status from payment_events order by payment_id, sequence").all() as {
      payment_id: number;
      sequence: number;
      type: string;
      status: string;
    }[];
    const outbox = new Set((db.prepare("select payment_id || ':' || sequence as k from outbox").all() as { k: string }[]).map((r) => r.k));
    const credits = new Map(
      (
        db.prepare("select payment_id, sum(amount_kobo) as total from bank_notices where kind = 'credit' group by payment_id").all() as {
          payment_id: number;
          total: number;
        }[]
      ).map((r) => [r.payment_id, r.total]),
    );
    // The books: what each payment's entries hold in sales and refund_due, and their fees (no refunds under this load).
    const booked = new Map(
      (
        db
          .prepare(
            `select e.payment_id, sum(case when p.account in ('sales', 'refund_due') then -p.amount_kobo else 0 end) as money,
                    sum(case when p.account = 'fees' then p.amount_kobo else 0 end) as fees
             from ledger_entries e join ledger_postings p on p.entry_id = e.id group by e.payment_id`,
          )
          .all() as { payment_id: number; money: number; fees: number }[]
      ).map((r) => [r.payment_id, r]),
    );
    const fees = new Map(
      (db.prepare("select id, fee_kobo from payments").all() as { id: number; fee_kobo: number }[]).map((r) => [r.id, r.fee_kobo]),
    );
    const byPayment = new Map<number, typeof events>();
    for (const e of events) byPayment.set(e.payment_id, [...(byPayment.get(e.payment_id) ?? []), e]);
    for (const p of payments) {
      const timeline = byPayment.get(p.id) ?? [];
      assert.deepEqual(
        timeline.map((e) => e.sequence),
        timeline.map((_, i) => i + 1),
        `payment ${p.id}: gapless timeline`,
      );
      assert.equal(timeline.length, p.event_sequence, `payment ${p.id}: sequence counter matches its events`);
      assert.equal(timeline[0]?.type, "initiated", `payment ${p.id}: starts with its initiation`);
      assert.equal(timeline.at(-1)?.status, p.status, `payment ${p.id}: last event shows the current status`);
      for (const e of timeline.slice(1))
        assert.ok(outbox.has(`${p.id}:${e.sequence}`), `payment ${p.id}: event ${e.sequence} has its outbox row`);
      assert.equal(p.money, credits.get(p.id) ?? 0, `payment ${p.id}: amountPaid + amountToRefund = credits received`);
      assert.equal(booked.get(p.id)?.money ?? 0, p.money, `payment ${p.id}: the books hold what the payment received`);
      assert.equal(booked.get(p.id)?.fees ?? 0, fees.get(p.id), `payment ${p.id}: the books charged the fee the payment shows`);
    }
  } finally {
    db.close();
  }
}

test(`${ROUNDS} rounds of SIGKILL under load: acknowledged payments survive, the database stays whole, replays answer the same`, async () => {
  const m = cliMerchant(dataDir, "Crash Co", "crash@example.com");
  const port = await freePort();
  let owo: OwoProcess = await spawnOwo(databaseIn(dataDir), {}, port);
  const token = await tokenFor(owo, m);
  const acknowledged: Acknowledged[] = [];
  let n = 0;

  for (let round = 1; round <= ROUNDS; round++) {
    const url = owo.url;
    let running = true;
    const load = async (worker: number) => {
      while (running) {
        const reference = `crash-${round}-${worker}-${++n}`;
        const usesUssd = n % 2 === 0;
        const body = JSON.stringify({
          publicKey: m.publicKey,
          amount: String(100 + (n % 900)),
          fullName: "Crash Customer",
          mobileNumber: "08012345678",
          email: "c@example.com",
          currency: "NGN",
          country: "NG",
          paymentReference: reference,
          callbackUrl: "https://shop.example.ng/cb",
          redirectUrl: "https://shop.example.ng/r",
          paymentType: usesUssd ? "USSD" : "TRANSFER",
          ...(usesUssd ? { bankCode: "058" } : {}),
        });
        const res = await post(`${url}/api/v2/payments/initiates`, token, body);
        if (!res) return;
        assert.equal(res.status, 200, res.text);
        acknowledged.push({ body, answer: res.text, reference });
        if (n % 3 === 0) {
          const paid = await post(
            `${url}/api/v2/sandbox/payments/${reference}/simulate`,
            token,
            JSON.stringify({ outcome: "pay", ...(usesUssd ? {} : { amount: "50.00" }) }),
          );
          if (!paid) return;
          assert.equal(paid.status, 200, paid.text);
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, i) => load(i));
    // Killed once this round has real load behind it (however slow the machine), then at a random moment.
    const before = acknowledged.length;
    for (const deadline = Date.now() + 60_000; acknowledged.length < before + 12 && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, Math.random() * 300));
    owo.child.kill("SIGKILL");
    await owo.exited;
    running = false;
    await Promise.all(workers);

    checkDatabase();
    const verified = runCli(["ledger", "verify", "--json"], dataDir);
    assert.equal(verified.status, 0, `the books hold after SIGKILL: ${verified.stdout}${verified.stderr}`);
    owo = await spawnOwo(databaseIn(dataDir), {}, port);
    for (const a of acknowledged) {
      const verify = await fetch(`${owo.url}/api/v3/payments/query/${a.reference}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(verify.status, 200, `acknowledged ${a.reference} is present`);
    }
    for (const a of acknowledged.slice(-50)) {
      const replay = await post(`${owo.url}/api/v2/payments/initiates`, token, a.body);
      assert.equal(replay?.text, a.answer, `replay of ${a.reference} answers the same bytes`);
    }
  }
  owo.child.kill("SIGTERM");
  await owo.exited;
  assert.ok(acknowledged.length > ROUNDS * 10, `load was real: ${acknowledged.length} acknowledged initiations`);
});
