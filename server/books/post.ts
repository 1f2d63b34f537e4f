// Posting an entry (API.md "Ledger and balances"): the one way money enters the books. Called inside the
// transaction of the state change that moved the money, so a crash keeps both or neither; it moves the chain head
// and the balances in that same transaction, so a balance is read from one row and always equals its entries.
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { dialect, joinQueue, postgresStatement, prepared, type Tx } from "../../db/client";
import { ledgerBalances, ledgerEntries, ledgerHeads, ledgerPostings, type LedgerEntryRow, type Mode } from "../../db/schema";
import { environment } from "../../environment";
import { newId } from "../identifiers";
import type { Account } from "./accounts";
import { chainHash, GENESIS_HASH } from "./chain";

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
const books = and(eq(ledgerHeads.merchantId, at("merchantId")), eq(ledgerHeads.mode, at("mode")));
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
    .where(books)
    .returning({ sequence: ledgerHeads.sequence, hash: ledgerHeads.hash }),
);
const setHeadHash = prepared((tx) =>
  tx
    .update(ledgerHeads)
    .set({ hash: sql`${at("hash")}` })
    .where(books),
);
const entryColumns = Object.keys(getTableColumns(ledgerEntries));
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

// PostgreSQL: the same work in two statements, since every round trip is spent holding the merchant's queue.
const ADVANCE_HEAD = `insert into ledger_heads (merchant_id, mode, sequence, hash) values ($1, $2, 1, $3)
  on conflict (merchant_id, mode) do update set sequence = ledger_heads.sequence + 1
  returning sequence, hash`;

const RECORD = `with head as (update ledger_heads set hash = $13 where merchant_id = $2 and mode = $3),
  entry as (insert into ledger_entries (id, merchant_id, mode, sequence, kind, reason, payment_id, payment_reference,
    refund_reference, settlement_id, reverses_entry_id, posted_at, hash)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)),
  lines as (insert into ledger_postings (entry_id, line, account, amount_kobo)
    select $1, p.line - 1, p.account, p.amount from unnest($14::text[], $15::bigint[]) with ordinality as p(account, amount, line))
  insert into ledger_balances (merchant_id, mode, account, balance_kobo)
    select $2, $3, b.account, b.amount from unnest($16::text[], $17::bigint[]) as b(account, amount)
  on conflict (merchant_id, mode, account) do update set balance_kobo = ledger_balances.balance_kobo + excluded.balance_kobo`;

async function advanceHeadOnPostgres(merchantId: string, mode: Mode): Promise<Head> {
  const [head] = await postgresStatement<{ sequence: string; hash: string }>("owo_ledger_head", ADVANCE_HEAD, [
    merchantId,
    mode,
    GENESIS_HASH,
  ]);
  if (!head) throw new Error(`no chain head for ${merchantId}/${mode}`);
  return { sequence: Number(head.sequence), previousHash: head.hash };
}

async function recordOnPostgres(row: LedgerEntryRow, postings: Posting[], balances: Balances): Promise<void> {
  await postgresStatement("owo_ledger_record", RECORD, [
    row.id,
    row.merchantId,
    row.mode,
    row.sequence,
    row.kind,
    row.reason,
    row.paymentId,
    row.paymentReference,
    row.refundReference,
    row.settlementId,
    row.reversesEntryId,
    row.postedAt,
    row.hash,
    postings.map((p) => p.account),
    postings.map((p) => p.amountKobo),
    [...balances.keys()],
    [...balances.values()],
  ]);
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
  await joinQueue(ledgerQueue(e.merchantId, e.mode));
  const onPostgres = dialect() === "postgres";
  const { sequence, previousHash } = onPostgres
    ? await advanceHeadOnPostgres(e.merchantId, e.mode)
    : await advanceHead(e.merchantId, e.mode);
  const row: LedgerEntryRow = { ...unposted(e), sequence };
  row.hash = chainHash(previousHash, { ...row, entryId: row.id, postings });
  const balances: Balances = new Map();
  for (const p of postings) balances.set(p.account, (balances.get(p.account) ?? 0) + p.amountKobo);
  await (onPostgres ? recordOnPostgres(row, postings, balances) : record(row, postings, balances));
  return row;
}

/** Undoes an earlier entry exactly: the same postings with their signs turned, pointing at it. */
export async function postReversal(tx: Tx, original: LedgerEntryRow, postedAt: number): Promise<LedgerEntryRow> {
  const postings = await tx
    .select({ account: ledgerPostings.account, amountKobo: ledgerPostings.amountKobo })
    .from(ledgerPostings)
    .where(eq(ledgerPostings.entryId, original.id))
    .orderBy(ledgerPostings.line);
  return postEntry(tx, {
    merchantId: original.merchantId,
    mode: original.mode,
    kind: "reversal",
    payment:
      original.paymentId !== null && original.paymentReference !== null
        ? { id: original.paymentId, paymentReference: original.paymentReference }
        : null,
    refundReference: original.refundReference,
    settlementId: original.settlementId,
    reversesEntryId: original.id,
    postings: postings.map((p) => ({ account: p.account as Account, amountKobo: -p.amountKobo })),
    postedAt,
  });
}
