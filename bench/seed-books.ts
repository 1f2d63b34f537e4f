// The books of the bench's bulk history, written in bulk: what Owo's start-up (server/books/opening.ts) would book for
// each seeded payment with money and no entry, one payment at a time, which for a million payments would hold the
// server's start for many minutes. The same entries: a credit of what it was paid, a late credit of what is owed back
// (no fee: the seeder writes no bank notices, so opening charges none either), chained per merchant and mode by
// server/books/chain.ts, with the balances and heads beside them. Afterwards opening finds nothing left to book.
import type Database from "better-sqlite3";
import type pg from "pg";
import { chainHash, GENESIS_HASH } from "../server/books/chain";
import { newId } from "../server/identifiers";

/** A payment as either driver answers it (PostgreSQL's bigints as strings). */
type Paid = {
  id: number | string;
  merchant_id: string;
  mode: string;
  payment_reference: string;
  amount_paid_kobo: number | string;
  amount_to_refund_kobo: number | string;
  paid_at: number | string | null;
  updated_at: number | string;
};
type Head = { sequence: number; hash: string };
export type SeededEntry = {
  entry: Record<string, string | number | null>;
  postings: { entry_id: string; line: number; account: string; amount_kobo: number }[];
};

const BATCH = 5_000;
const DUE = `select id, merchant_id, mode, payment_reference, amount_paid_kobo, amount_to_refund_kobo, paid_at, updated_at
  from payments p where id > $after and amount_paid_kobo + amount_to_refund_kobo > 0
  and not exists (select 1 from ledger_entries e where e.payment_id = p.id) order by id limit ${BATCH}`;

/** Chains one payment's entries onto its books' head and counts them into `balances`, as opening does. */
export function entriesOf(p: Paid, heads: Map<string, Head>, balances: Map<string, number>): SeededEntry[] {
  const books = `${p.merchant_id} ${p.mode}`;
  // PostgreSQL answers its bigint columns as strings.
  const paid = Number(p.amount_paid_kobo);
  const owed = Number(p.amount_to_refund_kobo);
  const moves: [kind: "credit" | "late_credit", amount: number, account: string, at: number][] = [];
  if (paid > 0) moves.push(["credit", paid, "sales", Number(p.paid_at ?? p.updated_at)]);
  if (owed > 0) moves.push(["late_credit", owed, "refund_due", Number(p.updated_at)]);
  return moves.map(([kind, amountKobo, account, postedAt]) => {
    const head = heads.get(books) ?? { sequence: 0, hash: GENESIS_HASH };
    const postings = [
      { account: "provider:sandbox", amountKobo },
      { account, amountKobo: -amountKobo },
    ];
    const e = {
      entryId: newId("led"),
      merchantId: p.merchant_id,
      mode: p.mode,
      sequence: head.sequence + 1,
      kind,
      reason: null,
      paymentReference: p.payment_reference,
      refundReference: null,
      settlementId: null,
      reversesEntryId: null,
      postedAt,
      postings,
    };
    const hash = chainHash(head.hash, e);
    heads.set(books, { sequence: e.sequence, hash });
    for (const x of postings) balances.set(`${books} ${x.account}`, (balances.get(`${books} ${x.account}`) ?? 0) + x.amountKobo);
    return {
      entry: {
        id: e.entryId,
        merchant_id: e.merchantId,
        mode: e.mode,
        sequence: e.sequence,
        kind,
        payment_id: Number(p.id),
        payment_reference: e.paymentReference,
        posted_at: postedAt,
        hash,
      },
      postings: postings.map((x, line) => ({ entry_id: e.entryId, line, account: x.account, amount_kobo: x.amountKobo })),
    };
  });
}

/** SQLite: the server is stopped; one transaction of prepared inserts. Returns how many entries went in. */
export function seedSqliteBooks(sqlite: Database.Database): number {
  const heads = new Map<string, Head>();
  for (const h of sqlite.prepare("select merchant_id, mode, sequence, hash from ledger_heads").iterate() as Iterable<
    Record<string, string>
  >)
    heads.set(`${h.merchant_id} ${h.mode}`, { sequence: Number(h.sequence), hash: String(h.hash) });
  const balances = new Map<string, number>();
  const due = sqlite.prepare(DUE.replace("$after", "@after"));
  const entry = sqlite.prepare(
    "insert into ledger_entries (id, merchant_id, mode, sequence, kind, payment_id, payment_reference, posted_at, hash) values (@id, @merchant_id, @mode, @sequence, @kind, @payment_id, @payment_reference, @posted_at, @hash)",
  );
  const posting = sqlite.prepare(
    "insert into ledger_postings (entry_id, line, account, amount_kobo) values (@entry_id, @line, @account, @amount_kobo)",
  );
  const balance = sqlite.prepare(
    "insert into ledger_balances (merchant_id, mode, account, balance_kobo) values (?, ?, ?, ?) on conflict (merchant_id, mode, account) do update set balance_kobo = balance_kobo + excluded.balance_kobo",
  );
  const head = sqlite.prepare(
    "insert into ledger_heads (merchant_id, mode, sequence, hash) values (?, ?, ?, ?) on conflict (merchant_id, mode) do update set sequence = excluded.sequence, hash = excluded.hash",
  );
  let count = 0;
  sqlite
    .transaction(() => {
      for (let after = 0; ;) {
        const rows = due.all({ after }) as Paid[];
        if (rows.length === 0) break;
        for (const p of rows)
          for (const e of entriesOf(p, heads, balances)) {
            entry.run(e.entry);
            for (const x of e.postings) posting.run(x);
            count++;
          }
        after = Number(rows.at(-1)?.id ?? after);
      }
      for (const [key, kobo] of balances) balance.run(...key.split(" "), kobo);
      for (const [key, h] of heads) head.run(...key.split(" "), h.sequence, h.hash);
    })
    .immediate();
  return count;
}

/** PostgreSQL: thousands of rows a statement, one transaction. Returns how many entries went in. */
export async function seedPostgresBooks(client: pg.ClientBase): Promise<number> {
  const heads = new Map<string, Head>();
  for (const h of (await client.query<{ merchant_id: string; mode: string; sequence: string; hash: string }>("select * from ledger_heads"))
    .rows)
    heads.set(`${h.merchant_id} ${h.mode}`, { sequence: Number(h.sequence), hash: h.hash });
  const balances = new Map<string, number>();
  let count = 0;
  await client.query("begin");
  try {
    for (let after = 0; ;) {
      const rows = (await client.query<Paid>(DUE.replace("$after", "$1"), [after])).rows;
      if (rows.length === 0) break;
      const entries = rows.flatMap((p) => entriesOf(p, heads, balances));
      await client.query("insert into ledger_entries select * from json_populate_recordset(null::ledger_entries, $1)", [
        JSON.stringify(entries.map((e) => e.entry)),
      ]);
      await client.query(
        "insert into ledger_postings (entry_id, line, account, amount_kobo) select entry_id, line, account, amount_kobo from json_populate_recordset(null::ledger_postings, $1)",
        [JSON.stringify(entries.flatMap((e) => e.postings))],
      );
      count += entries.length;
      after = Number(rows.at(-1)?.id ?? after);
    }
    for (const [key, kobo] of balances)
      await client.query(
        "insert into ledger_balances (merchant_id, mode, account, balance_kobo) values ($1, $2, $3, $4) on conflict (merchant_id, mode, account) do update set balance_kobo = ledger_balances.balance_kobo + excluded.balance_kobo",
        [...key.split(" "), kobo],
      );
    for (const [key, h] of heads)
      await client.query(
        "insert into ledger_heads (merchant_id, mode, sequence, hash) values ($1, $2, $3, $4) on conflict (merchant_id, mode) do update set sequence = excluded.sequence, hash = excluded.hash",
        [...key.split(" "), h.sequence, h.hash],
      );
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  }
  // The planner's statistics, as autovacuum would have them after a load this size. Without the postings' the export
  // read a batch's postings 2.5 times slower (1.4 s of a 2.5 s export in process, against 0.5 s) than any deployment
  // that has run a while would.
  await client.query("analyze ledger_entries, ledger_postings");
  return count;
}
