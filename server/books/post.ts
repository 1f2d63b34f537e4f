// Posting an entry (API.md "Ledger and balances"): the one way money enters the books. Called inside the
// transaction of the state change that moved the money, so a crash keeps both or neither; it moves the chain head
// and the balances in that same transaction, so a balance is read from one row and always equals its entries.
import { joinQueue, sqliteStatement, type Tx } from "../../db/client";
import { postgresAtCommit } from "../../db/postgres-statements";
import { bigintArrayLiteral, bigintLiteral, integerLiteral, textArrayLiteral, textLiteral } from "../../db/postgres-literals";
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

/** The entry's own columns after its id, in the order SQLite's insert names them (sequence and hash come from the head). */
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

function postOnSqlite(tx: Tx, entry: LedgerEntryRow, postings: Posting[], balances: Balances): void {
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
}

// PostgreSQL: the posting is one call of `owo_post_entry` (db/migrations-pg/0020_ledger_post_function.sql), sent with
// the transaction's COMMIT in one message (db/postgres-statements.ts `postgresAtCommit`). A round trip of its own cost a sandbox
// credit more than PostgreSQL's work of posting (bench/README.md), and from the queue's lock to commit every other
// writer of the merchant's books waits: now nothing but PostgreSQL's own work lies between them. The database places
// the entry in the chain: it takes the queue, moves the head and hashes (SHA-256 of the previous hash and the
// canonical bytes, the sequence spliced in: chain.ts), then books the entry, its postings and the balances.
function postOnPostgres(tx: Tx, row: LedgerEntryRow, postings: Posting[], balances: Balances, queue: readonly [number, number]): void {
  const [before, after] = canonicalAroundSequence({ ...row, entryId: row.id, postings });
  const values = [
    textLiteral(row.id),
    textLiteral(row.merchantId),
    textLiteral(row.mode),
    textLiteral(row.kind),
    textLiteral(row.reason),
    bigintLiteral(row.paymentId),
    textLiteral(row.paymentReference),
    textLiteral(row.refundReference),
    textLiteral(row.settlementId),
    textLiteral(row.reversesEntryId),
    bigintLiteral(row.postedAt),
    textArrayLiteral(postings.map((p) => p.account)),
    bigintArrayLiteral(postings.map((p) => p.amountKobo)),
    textLiteral(before),
    textLiteral(after),
    textArrayLiteral([...balances.keys()]),
    bigintArrayLiteral([...balances.values()]),
    integerLiteral(queue[0]),
    integerLiteral(queue[1]),
  ];
  postgresAtCommit(tx, `select owo_post_entry(${values.join(", ")})`);
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

/**
 * Posts one balanced entry in the transaction `tx`; nothing is written when it does not balance. On PostgreSQL it is
 * written with the commit, or before the transaction's next statement, so what follows in `tx` reads it either way.
 */
export async function postEntry(tx: Tx, e: NewEntry): Promise<void> {
  const postings = checked(e.postings);
  if (BENCH_POSTING_OFF) return;
  const queue = joinQueue(tx, ledgerQueue(e.merchantId, e.mode));
  const balances: Balances = new Map();
  for (const p of postings) balances.set(p.account, (balances.get(p.account) ?? 0) + p.amountKobo);
  return queue ? postOnPostgres(tx, unposted(e), postings, balances, queue) : postOnSqlite(tx, unposted(e), postings, balances);
}
