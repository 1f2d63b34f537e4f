// `owo ledger verify` (API.md "Ledger and balances") on a merchant's real books and on tampered copies of them: a
// moved kobo breaks the hash, a balance edited by hand no longer equals its entries, and a chain rewritten and re-hashed
// whole is sound on its own but caught by a head kept from before.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import Database from "better-sqlite3";
import { db } from "../../db/client";
import { ledgerHeads } from "../../db/schema";
import type { Owo, TestMerchant } from "../testing/harness";
import { paidInSandbox, startInitiating, transferBody } from "../testing/initiation";
import { runCliBeside } from "../testing/processes";
import { chainHash, GENESIS_HASH } from "./chain";

let owo: Owo;
let m: TestMerchant;
before(async () => {
  const s = await startInitiating();
  ({ owo, merchant: m } = s);
  // Two credits: the first, ₦1,000.00, with the sandbox's ₦15.00 fee, is the one each tampered copy changes.
  await paidInSandbox(s, transferBody(m.publicKey, { amount: "1000.00" }));
  await paidInSandbox(s, transferBody(m.publicKey, { amount: "500.00" }));
});
after(() => owo.stop());

const onSqlite = () => !process.env.OWO_TEST_POSTGRES_URL;

test("ledger verify passes on the books and names the first fault on tampered copies", async () => {
  const ok = await runCliBeside(["ledger", "verify", "--json"], owo.databaseUrl);
  assert.equal(ok.status, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout.trim().split("\n").pop() ?? ""), { ok: true, entries: 2 });
  if (!onSqlite()) return;

  const tampered = (name: string, change: (d: Database.Database) => void): string => {
    const copy = join(owo.dataDir, `${name}.db`);
    // The live file's WAL holds recent pages: a consistent copy comes through SQLite itself.
    const live = new Database(owo.databaseUrl, { readonly: true });
    live.prepare("vacuum into ?").run(copy);
    live.close();
    const d = new Database(copy);
    for (const t of ["ledger_entries_no_update", "ledger_postings_no_update"]) d.exec(`drop trigger ${t}`);
    change(d);
    d.close();
    return copy;
  };
  const verify = async (file: string, ...args: string[]) => {
    const r = await runCliBeside(["ledger", "verify", "--json", ...args], file);
    return { status: r.status, out: JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}") };
  };

  // A kobo moved from sales to the provider on the first credit: the postings still sum to zero, the hash breaks.
  const moved = tampered("moved", (d) => {
    d.exec(
      "update ledger_postings set amount_kobo = amount_kobo + 1 where line = 0 and entry_id = (select id from ledger_entries where sequence = 1)",
    );
    d.exec(
      "update ledger_postings set amount_kobo = amount_kobo - 1 where line = 1 and entry_id = (select id from ledger_entries where sequence = 1)",
    );
  });
  const first = (await verify(moved)).out;
  assert.equal((await verify(moved)).status, 1);
  assert.equal(first.ok, false);
  assert.equal(first.fault.merchantId, m.merchantId);
  assert.equal(first.fault.mode, "test");
  assert.match(first.fault.reason, /hash/);

  // A balance edited by hand no longer equals its entries.
  const balance = tampered("balance", (d) => d.exec("update ledger_balances set balance_kobo = balance_kobo + 100 where account = 'fees'"));
  const b = await verify(balance);
  assert.equal(b.status, 1);
  assert.match(b.out.fault.reason, /balance of fees/);

  // The whole chain rewritten and re-hashed (the fee of the first credit halved): sound on its own, caught by the kept head.
  const [head] = await db().select().from(ledgerHeads);
  assert.ok(head);
  const kept = `${head.sequence}:${head.hash}`;
  const rewritten = tampered("rewritten", (d) => {
    const first = d.prepare("select id from ledger_entries where sequence = 1").get() as { id: string };
    d.prepare("update ledger_postings set amount_kobo = amount_kobo / 2 where entry_id = ? and line in (2, 3)").run(first.id);
    d.exec("update ledger_balances set balance_kobo = balance_kobo - 750 where account = 'fees'");
    d.exec("update ledger_balances set balance_kobo = balance_kobo + 750 where account = 'provider:sandbox'");
    let previous = GENESIS_HASH;
    const entries = d.prepare("select * from ledger_entries order by sequence").all() as Record<string, string | number | null>[];
    for (const e of entries) {
      const postings = d
        .prepare("select account, amount_kobo as amountKobo from ledger_postings where entry_id = ? order by line")
        .all(e.id) as {
        account: string;
        amountKobo: number;
      }[];
      const hash = chainHash(previous, {
        entryId: String(e.id),
        merchantId: String(e.merchant_id),
        mode: String(e.mode),
        sequence: Number(e.sequence),
        kind: String(e.kind),
        reason: e.reason === null ? null : String(e.reason),
        paymentReference: e.payment_reference === null ? null : String(e.payment_reference),
        refundReference: e.refund_reference === null ? null : String(e.refund_reference),
        settlementId: e.settlement_id === null ? null : String(e.settlement_id),
        reversesEntryId: e.reverses_entry_id === null ? null : String(e.reverses_entry_id),
        postedAt: Number(e.posted_at),
        postings,
      });
      d.prepare("update ledger_entries set hash = ? where id = ?").run(hash, e.id);
      previous = hash;
    }
    d.prepare("update ledger_heads set hash = ?").run(previous);
  });
  assert.equal((await verify(rewritten)).status, 0, "a perfect rewrite is sound on its own");
  const caught = await verify(rewritten, "--merchant", m.merchantId, "--expect-head", kept);
  assert.equal(caught.status, 1);
  assert.match(caught.out.fault.reason, /expected head/);
  assert.equal((await verify(owo.databaseUrl, "--merchant", m.merchantId, "--expect-head", kept)).status, 0);
});
