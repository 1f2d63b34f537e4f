// Posting an entry (API.md "Ledger and balances"): the one way money enters the books. Called inside the
// transaction of the state change that moved the money, so a crash keeps both or neither; it moves the chain head
// and the balances in that same transaction, so a balance is read from one row and always equals its entries.
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { joinQueue, postgresStatement, prepared, type Tx } from "../../db/client";
import {
  declaredTables,
  ledgerBalances,
  ledgerEntries,
  ledgerHeads,
  ledgerPostings,
  type LedgerEntryRow,
  type Mode,
} from "../../db/schema";
import { environment } from "../../environment";
import { newId } from "../identifiers";
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

type Head = { sequence: number; previousHash: string };
type Balances = Map<string, number>;

// SQLite: each statement compiled once (db/client.ts `prepared`); building them per posting cost more than running them.
const at = (name: string) => sql.placeholder(name);
const books = () => and(eq(ledgerHeads.merchantId, at("merchantId")), eq(ledgerHeads.mode, at("mode")));
const openHead = prepared((tx) =>
  tx
    .insert(ledgerHeads)
    .values({
      merchantId: at("merchantId"),
      mode: at("mode"),
      sequence: 0,
      hash: GENESIS_HASH,
    } as unknown as typeof ledgerHeads.$inferInsert)
    .onConflictDoNothing(),
);
const nextSequence = prepared((tx) =>
  tx
    .update(ledgerHeads)
    .set({ sequence: sql`${ledgerHeads.sequence} + 1` })
    .where(books())
    .returning({ sequence: ledgerHeads.sequence, hash: ledgerHeads.hash }),
);
const setHeadHash = prepared((tx) =>
  tx
    .update(ledgerHeads)
    .set({ hash: sql`${at("hash")}` })
    .where(books()),
);
const entryColumns = Object.keys(getTableColumns(declaredTables.ledgerEntries));
const insertEntry = prepared((tx) =>
  // Drizzle types insert values per column; placeholders stand for each of them alike.
  tx.insert(ledgerEntries).values(Object.fromEntries(entryColumns.map((c) => [c, at(c)])) as unknown as LedgerEntryRow),
);
const insertPosting = prepared((tx) =>
  tx.insert(ledgerPostings).values({
    entryId: at("entryId"),
    line: at("line"),
    account: at("account"),
    amountKobo: at("amountKobo"),
  } as unknown as typeof ledgerPostings.$inferInsert),
);
const addToBalance = prepared((tx) =>
  tx
    .insert(ledgerBalances)
    .values({
      merchantId: at("merchantId"),
      mode: at("mode"),
      account: at("account"),
      balanceKobo: at("amountKobo"),
    } as unknown as typeof ledgerBalances.$inferInsert)
    .onConflictDoUpdate({
      target: [ledgerBalances.merchantId, ledgerBalances.mode, ledgerBalances.account],
      set: { balanceKobo: sql`${ledgerBalances.balanceKobo} + excluded.balance_kobo` },
    }),
);

/** Takes the next sequence of the merchant's chain for this mode. */
async function advanceHead(merchantId: string, mode: Mode): Promise<Head> {
  await openHead({ merchantId, mode });
  const [head] = await nextSequence({ merchantId, mode });
  if (!head) throw new Error(`no chain head for ${merchantId}/${mode}`);
  return { sequence: head.sequence, previousHash: head.hash };
}

/** The entry, its postings, the head's new hash and the balances, statement by statement (SQLite: no round trips). */
async function record(row: LedgerEntryRow, postings: Posting[], balances: Balances): Promise<void> {
  await setHeadHash({ merchantId: row.merchantId, mode: row.mode, hash: row.hash });
  await insertEntry(row);
  for (const [line, p] of postings.entries()) await insertPosting({ entryId: row.id, line, account: p.account, amountKobo: p.amountKobo });
  for (const [account, amountKobo] of balances) await addToBalance({ merchantId: row.merchantId, mode: row.mode, account, amountKobo });
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

async function postOnPostgres(row: LedgerEntryRow, postings: Posting[], balances: Balances, queue: readonly [number, number]) {
  const [before, after] = canonicalAroundSequence({ ...row, entryId: row.id, postings });
  const [head] = await postgresStatement<{ sequence: string; hash: string }>("owo_ledger_post", POST, [
    row.id,
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
    id: newId("led"),
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
  const queue = joinQueue(ledgerQueue(e.merchantId, e.mode));
  const balances: Balances = new Map();
  for (const p of postings) balances.set(p.account, (balances.get(p.account) ?? 0) + p.amountKobo);
  if (queue) return postOnPostgres(unposted(e), postings, balances, queue);
  const { sequence, previousHash } = await advanceHead(e.merchantId, e.mode);
  const row: LedgerEntryRow = { ...unposted(e), sequence };
  row.hash = chainHash(previousHash, { ...row, entryId: row.id, postings });
  await record(row, postings, balances);
  return row;
}
