// `owo ledger verify` (API.md "Ledger and balances") on a merchant's real books and on tampered copies of them: a
// moved kobo breaks the hash, a balance edited by hand no longer equals its entries, and a chain rewritten and re-hashed
// whole is sound on its own but caught by a head kept from before.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import Database from "better-sqlite3";
import { db, write } from "../../db/client";
import { ledgerEntries, ledgerHeads } from "../../db/schema";
import { createTestMerchant, type Owo, type TestMerchant } from "../testing/harness";
import { paidInSandbox, startInitiating, transferBody } from "../testing/initiation";
import { runCliBeside } from "../testing/processes";
import { chainHash, GENESIS_HASH } from "./chain";
import { postEntry } from "./post";

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
  assert.match(caught.out.fault.reason, new RegExp(`^the kept head ${kept} is not in the chain: entry 2 now hashes to [0-9a-f]{64}$`));
  assert.equal((await verify(owo.databaseUrl, "--merchant", m.merchantId, "--expect-head", kept)).status, 0);
});

/** `ledger verify --json` over the live books with `args`: its exit status and the JSON it printed last. */
async function verifyLive(...args: string[]) {
  const r = await runCliBeside(["ledger", "verify", "--json", ...args], owo.databaseUrl);
  return { status: r.status, out: JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}"), stderr: r.stderr };
}

test("--expect-head checks that the chain still holds a head kept earlier: its entry at that sequence, with that hash", async () => {
  const entries = await db().select().from(ledgerEntries).orderBy(ledgerEntries.sequence);
  assert.deepEqual(
    entries.map((e) => e.sequence),
    [1, 2],
  );
  const [older, current] = entries;
  assert.ok(older && current);
  const expect = (head: string, ...more: string[]) => verifyLive("--merchant", m.merchantId, "--expect-head", head, ...more);
  const [now, earlier, beyond, moved, genesis, notGenesis, emptyBooks, inLive, inTest] = await Promise.all([
    expect(`2:${current.hash}`),
    // Kept when the chain was one entry long: the chain grew since, and still holds it.
    expect(`1:${older.hash}`),
    expect(`3:${current.hash}`),
    expect(`2:${older.hash}`),
    // The head balances shows for books with no entry: every chain starts there.
    expect(`0:${GENESIS_HASH}`),
    expect(`0:${current.hash}`),
    createTestMerchant().then((fresh) => verifyLive("--merchant", fresh.merchantId, "--expect-head", `0:${GENESIS_HASH}`)),
    expect(`2:${current.hash}`, "--mode", "live"),
    expect(`2:${current.hash}`, "--mode", "test"),
  ]);
  for (const pass of [now, earlier, genesis, inTest]) assert.deepEqual([pass.status, pass.out], [0, { ok: true, entries: 2 }], pass.stderr);
  assert.deepEqual([emptyBooks.status, emptyBooks.out], [0, { ok: true, entries: 0 }], emptyBooks.stderr);

  assert.equal(beyond.status, 1);
  assert.deepEqual(beyond.out.fault, {
    merchantId: m.merchantId,
    mode: "test",
    entryId: null,
    reason: `the kept head 3:${current.hash} is not in the chain: the chain ends at 2`,
  });
  assert.equal(moved.status, 1);
  assert.deepEqual(moved.out.fault, {
    merchantId: m.merchantId,
    mode: "test",
    entryId: current.id,
    reason: `the kept head 2:${older.hash} is not in the chain: entry 2 now hashes to ${current.hash}`,
  });
  assert.equal(notGenesis.status, 1);
  assert.match(notGenesis.out.fault.reason, new RegExp(`is not in the chain: every chain starts from ${GENESIS_HASH}$`));
  // --mode names the chain: the test head is not in the (empty) live one.
  assert.equal(inLive.status, 1);
  assert.deepEqual(
    [inLive.out.fault.mode, inLive.out.fault.reason],
    ["live", `the kept head 2:${current.hash} is not in the chain: the chain ends at 0`],
  );
});

test("ledger verify refuses what it cannot check, in JSON under --json: an unknown merchant, a head without its merchant or malformed", async () => {
  const [unknown, unknownHuman, headless, malformed, modeAlone] = await Promise.all([
    verifyLive("--merchant", "mch_nope"),
    runCliBeside(["ledger", "verify", "--merchant", "mch_nope"], owo.databaseUrl),
    verifyLive("--expect-head", `0:${GENESIS_HASH}`),
    verifyLive("--merchant", m.merchantId, "--expect-head", "2:abc"),
    verifyLive("--merchant", m.merchantId, "--mode", "live"),
  ]);
  // No books is what an unknown id has, which would read as sound books.
  assert.equal(unknown.status, 1);
  assert.deepEqual(unknown.out, { ok: false, error: { code: "S404", message: "No merchant mch_nope" } });
  assert.equal(unknownHuman.status, 1);
  assert.equal(unknownHuman.stderr.trim(), "error: No merchant mch_nope");
  assert.equal(unknownHuman.stdout.trim(), "", "JSON only under --json");

  assert.equal(headless.status, 1);
  assert.deepEqual(headless.out, {
    ok: false,
    error: { code: "S5", message: "--expect-head needs --merchant <merchantId>: a head belongs to one merchant's chain" },
  });
  assert.doesNotMatch(headless.stderr, /Error: Error/);
  assert.equal(malformed.status, 1);
  assert.match(malformed.out.error.message, /^--expect-head must be <sequence>:<64 hex digits>.*; got "2:abc"$/);
  assert.equal(modeAlone.status, 1);
  assert.match(modeAlone.out.error.message, /^--mode goes with --expect-head/);
});

test("without --mode a kept head is looked for in each of the merchant's chains: a hash belongs to one mode", async () => {
  // Two live entries (write-offs of suspense money), so the merchant has a chain in each mode; last, as they change the books.
  for (const amountKobo of [100, 200])
    await write((tx) =>
      postEntry(tx, {
        merchantId: m.merchantId,
        mode: "live",
        kind: "adjustment",
        reason: "write_off",
        postings: [
          { account: "adjustments", amountKobo },
          { account: "suspense", amountKobo: -amountKobo },
        ],
        postedAt: Date.now(),
      }),
    );
  const entries = await db().select().from(ledgerEntries).orderBy(ledgerEntries.sequence);
  const test2 = entries.find((e) => e.mode === "test" && e.sequence === 2);
  const live2 = entries.find((e) => e.mode === "live" && e.sequence === 2);
  assert.ok(test2 && live2);
  const expect = (head: string, ...more: string[]) => verifyLive("--merchant", m.merchantId, "--expect-head", head, ...more);
  const other = "a".repeat(64);
  const [live, test, liveAsTest, neither] = await Promise.all([
    expect(`2:${live2.hash}`),
    expect(`2:${test2.hash}`),
    expect(`2:${live2.hash}`, "--mode", "test"),
    expect(`2:${other}`),
  ]);
  for (const pass of [live, test]) assert.deepEqual([pass.status, pass.out], [0, { ok: true, entries: 4 }], pass.stderr);
  assert.equal(liveAsTest.status, 1);
  assert.deepEqual(
    [liveAsTest.out.fault.mode, liveAsTest.out.fault.reason],
    ["test", `the kept head 2:${live2.hash} is not in the chain: entry 2 now hashes to ${test2.hash}`],
  );
  assert.equal(neither.status, 1);
  assert.deepEqual(neither.out.fault, {
    merchantId: m.merchantId,
    mode: "live",
    entryId: live2.id,
    reason:
      `the kept head 2:${other} is in neither of the merchant's chains (--mode picks one): ` +
      `test: entry 2 now hashes to ${test2.hash}; live: entry 2 now hashes to ${live2.hash}`,
  });
});
