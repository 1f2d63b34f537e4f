// Posting an entry (API.md "Ledger and balances"): the one way money enters the books. Called inside the
// transaction of the state change that moved the money, so a crash keeps both or neither; it moves the chain head
// and the balances in that same transaction, so a balance is read from one row and always equals its entries.
import { joinQueue, postgresStatement, sqliteStatement, type Tx } from "../../db/client";
import type { LedgerEntryRow, Mode } from "../../db/schema";
import { environment } from "../../environment";
import { newOrderedId } from "../identifiers";
import type { Account } from "./accounts";
import { canonicalAroundSequence, chainHash, GENESIS_HASH } from "./chain";

export type EntryKind = LedgerEntryRow["kind"];
export type AdjustmentReason = "chargeback" | "stamp_duty" | "provider_reversal" | "external_refund" | "write_off";

export type Posting = { account: Account; amountKobo: number };

export type NewEntry = {
  merchantId: string;
  mode: Mode;
  kind: EntryKind;
  /** An adjustment's reason; null otherwise. */
  reason?: AdjustmentReason | null;
  payment?: { id: number; paymentReference: string } | null;
  refundReference?: string | null;
  settlementId?: string | null;
  reversesEntryId?: string | null;
  /** Debits positive, credits negative; zero amounts are left out. */
  postings: Posting[];
  postedAt: number;
};

/** A programming error, never a user's: an entry that does not balance is refused before anything is written. */
export class UnbalancedEntry extends Error {}

function checked(postings: Posting[]): Posting[] {
  const kept = postings.filter((p) => p.amountKobo !== 0);
  let sum = 0n;
  for (const p of kept) {
    if (!Number.isSafeInteger(p.amountKobo)) throw new UnbalancedEntry(`posting to ${p.account}: ${p.amountKobo} is not whole kobo`);
    sum += BigInt(p.amountKobo);
  }
  if (sum !== 0n) throw new UnbalancedEntry(`postings sum to ${sum} kobo, not zero: ${JSON.stringify(kept)}`);
  if (kept.length < 2) throw new UnbalancedEntry("an entry moves money between at least two accounts");
  return kept;
}

/** Writers of one merchant's books in one mode run one after another (db/client.ts `joinQueue`): they move one head. */
export function ledgerQueue(merchantId: string, mode: Mode): string {
  return `ledger ${merchantId} ${mode}`;
}

type Balances = Map<string, number>;

/** The entry's own columns after its id, in the order both dialects' inserts name them (sequence and hash come from the head). */
function entryColumns(row: LedgerEntryRow): unknown[] {
  return [
    row.merchantId,
    row.mode,
    row.kind,
    row.reason,
    row.paymentId,
    row.paymentReference,
    row.refundReference,
    row.settlementId,
    row.reversesEntryId,
    row.postedAt,
  ];
}

// SQLite: five statements on the write connection (db/client.ts `sqliteStatement`, compiled once; Drizzle's execution of
// its prepared queries cost a third of a posting): the head read, the head moved with the entry's hash, the entry, its
// postings in one multi-row insert and its balances in one multi-row upsert (a row each cost more: bench/README.md).
// Writers run one at a time there, so the head read is still the head when it is moved. Hashing in SQL as PostgreSQL
// does (a JavaScript function registered on the connection) saved the read but cost more than it (bench/README.md).
const readHead = sqliteStatement<{ sequence: number; hash: string }>(
  "select sequence, hash from ledger_heads where merchant_id = ? and mode = ?",
);
const moveHead = sqliteStatement(
  `insert into ledger_heads (merchant_id, mode, sequence, hash) values (?, ?, ?, ?)
    on conflict (merchant_id, mode) do update set sequence = excluded.sequence, hash = excluded.hash`,
);
const insertEntry = sqliteStatement(
  `insert into ledger_entries (id, merchant_id, mode, kind, reason, payment_id, payment_reference, refund_reference,
    settlement_id, reverses_entry_id, posted_at, sequence, hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);

/** One statement per number of rows, compiled when first met: an entry has two to a few postings and balances. */
function byRows(text: (values: string) => string): (tx: Tx, rows: unknown[][]) => void {
  const statements = new Map<number, ReturnType<typeof sqliteStatement>>();
  return (tx, rows) => {
    let statement = statements.get(rows.length);
    if (!statement) {
      statement = sqliteStatement(text(rows.map((r) => `(${r.map(() => "?").join(", ")})`).join(", ")));
      statements.set(rows.length, statement);
    }
    statement(tx, ...rows.flat());
  };
}
const insertPostings = byRows((values) => `insert into ledger_postings (entry_id, line, account, amount_kobo) values ${values}`);
const addToBalances = byRows(
  (values) => `insert into ledger_balances (merchant_id, mode, account, balance_kobo) values ${values}
    on conflict (merchant_id, mode, account) do update set balance_kobo = balance_kobo + excluded.balance_kobo`,
);

function postOnSqlite(tx: Tx, entry: LedgerEntryRow, postings: Posting[], balances: Balances): LedgerEntryRow {
  const [head] = readHead(tx, entry.merchantId, entry.mode);
  const row: LedgerEntryRow = { ...entry, sequence: (head?.sequence ?? 0) + 1 };
  row.hash = chainHash(head?.hash ?? GENESIS_HASH, { ...row, entryId: row.id, postings });
  moveHead(tx, row.merchantId, row.mode, row.sequence, row.hash);
  insertEntry(tx, row.id, ...entryColumns(row), row.sequence, row.hash);
  insertPostings(
    tx,
    postings.map((p, line) => [row.id, line, p.account, p.amountKobo]),
  );
  addToBalances(
    tx,
    [...balances].map(([account, amountKobo]) => [row.merchantId, row.mode, account, amountKobo]),
  );
  return row;
}

// PostgreSQL: the whole posting is one statement, since from the queue's lock to commit every other writer of the
// merchant's books waits, each round trip included. The database places the entry in the chain: it takes the queue,
// moves the head and hashes (SHA-256 of the previous hash and the canonical bytes, the sequence spliced in: chain.ts)
// in the head's upsert; the entry, its postings and the balances follow from the head's row, so no row of the books
// is locked before the queue is held.
const HASHED = (previous: string, sequence: string) =>
  `encode(sha256(convert_to(${previous} || $14::text || ${sequence} || $15::text, 'UTF8')), 'hex')`;
const POST = `with queue as (select pg_advisory_xact_lock($18, $19)),
  head as (insert into ledger_heads (merchant_id, mode, sequence, hash)
      select $2::text, $3::text, 1, ${HASHED(`'${GENESIS_HASH}'`, "'1'")} from queue
    on conflict (merchant_id, mode) do update set sequence = ledger_heads.sequence + 1,
      hash = ${HASHED("ledger_heads.hash", "(ledger_heads.sequence + 1)::text")}
    returning sequence, hash),
  entry as (insert into ledger_entries (id, merchant_id, mode, sequence, kind, reason, payment_id, payment_reference,
      refund_reference, settlement_id, reverses_entry_id, posted_at, hash)
    select $1::text, $2::text, $3::text, head.sequence, $4::text, $5::text, $6::bigint, $7::text, $8::text, $9::text,
      $10::text, $11::bigint, head.hash from head),
  lines as (insert into ledger_postings (entry_id, line, account, amount_kobo)
    select $1::text, p.line - 1, p.account, p.amount from head,
      unnest($12::text[], $13::bigint[]) with ordinality as p(account, amount, line)),
  balances as (insert into ledger_balances (merchant_id, mode, account, balance_kobo)
    select $2::text, $3::text, b.account, b.amount from head, unnest($16::text[], $17::bigint[]) as b(account, amount)
    on conflict (merchant_id, mode, account) do update set balance_kobo = ledger_balances.balance_kobo + excluded.balance_kobo)
  select sequence, hash from head`;

async function postOnPostgres(tx: Tx, row: LedgerEntryRow, postings: Posting[], balances: Balances, queue: readonly [number, number]) {
  const [before, after] = canonicalAroundSequence({ ...row, entryId: row.id, postings });
  const [head] = await postgresStatement<{ sequence: string; hash: string }>(tx, "owo_ledger_post", POST, [
    row.id,
    ...entryColumns(row),
    postings.map((p) => p.account),
    postings.map((p) => p.amountKobo),
    before,
    after,
    [...balances.keys()],
    [...balances.values()],
    ...queue,
  ]);
  if (!head) throw new Error(`no chain head for ${row.merchantId}/${row.mode}`);
  return { ...row, sequence: Number(head.sequence), hash: head.hash };
}

/**
 * `npm run bench` only: the same build with nothing posted, so the bench can measure what posting
 * costs a sandbox credit. Never set in a deployment: the books would miss every movement made meanwhile.
 */
const BENCH_POSTING_OFF = !environment("benchPosting");

/** The entry's row before the chain places it (sequence 0, no hash). */
function unposted(e: NewEntry): LedgerEntryRow {
  return {
    // Time-ordered: each entry lands at the end of the entries' and postings' id indexes (server/identifiers.ts).
    id: newOrderedId("led"),
    merchantId: e.merchantId,
    mode: e.mode,
    sequence: 0,
    kind: e.kind,
    reason: e.reason ?? null,
    paymentId: e.payment?.id ?? null,
    paymentReference: e.payment?.paymentReference ?? null,
    refundReference: e.refundReference ?? null,
    settlementId: e.settlementId ?? null,
    reversesEntryId: e.reversesEntryId ?? null,
    postedAt: e.postedAt,
    hash: "",
  };
}

/** Posts one balanced entry; returns it as stored. Nothing is written when it does not balance. */
export async function postEntry(tx: Tx, e: NewEntry): Promise<LedgerEntryRow> {
  const postings = checked(e.postings);
  if (BENCH_POSTING_OFF) return unposted(e);
  const queue = joinQueue(tx, ledgerQueue(e.merchantId, e.mode));
  const balances: Balances = new Map();
  for (const p of postings) balances.set(p.account, (balances.get(p.account) ?? 0) + p.amountKobo);
  return queue ? postOnPostgres(tx, unposted(e), postings, balances, queue) : postOnSqlite(tx, unposted(e), postings, balances);
}
