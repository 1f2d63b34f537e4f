// Posting an entry (API.md "Ledger and balances"): the one way money enters the books. Called inside the
// transaction of the state change that moved the money, so a crash keeps both or neither; it moves the chain head
// and the balances in that same transaction, so a balance is read from one row and always equals its entries.
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { ledgerBalances, ledgerEntries, ledgerHeads, ledgerPostings, type LedgerEntryRow, type Mode } from "../../db/schema";
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

/** Takes the next sequence of the merchant's chain for this mode; on PostgreSQL the row stays locked until commit. */
async function advanceHead(tx: Tx, merchantId: string, mode: Mode): Promise<{ sequence: number; previousHash: string }> {
  await tx.insert(ledgerHeads).values({ merchantId, mode, sequence: 0, hash: GENESIS_HASH }).onConflictDoNothing();
  const [head] = await tx
    .update(ledgerHeads)
    .set({ sequence: sql`${ledgerHeads.sequence} + 1` })
    .where(and(eq(ledgerHeads.merchantId, merchantId), eq(ledgerHeads.mode, mode)))
    .returning({ sequence: ledgerHeads.sequence, hash: ledgerHeads.hash });
  if (!head) throw new Error(`no chain head for ${merchantId}/${mode}`);
  return { sequence: head.sequence, previousHash: head.hash };
}

/** Posts one balanced entry; returns it as stored. Nothing is written when it does not balance. */
export async function postEntry(tx: Tx, e: NewEntry): Promise<LedgerEntryRow> {
  const postings = checked(e.postings);
  const { sequence, previousHash } = await advanceHead(tx, e.merchantId, e.mode);
  const row: LedgerEntryRow = {
    id: newId("led"),
    merchantId: e.merchantId,
    mode: e.mode,
    sequence,
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
  row.hash = chainHash(previousHash, { ...row, entryId: row.id, postings });
  await tx
    .update(ledgerHeads)
    .set({ hash: row.hash })
    .where(and(eq(ledgerHeads.merchantId, e.merchantId), eq(ledgerHeads.mode, e.mode)));
  await tx.insert(ledgerEntries).values(row);
  await tx
    .insert(ledgerPostings)
    .values(postings.map((p, line) => ({ entryId: row.id, line, account: p.account, amountKobo: p.amountKobo })));
  const byAccount = new Map<string, number>();
  for (const p of postings) byAccount.set(p.account, (byAccount.get(p.account) ?? 0) + p.amountKobo);
  for (const [account, amountKobo] of byAccount) {
    await tx
      .insert(ledgerBalances)
      .values({ merchantId: e.merchantId, mode: e.mode, account, balanceKobo: amountKobo })
      .onConflictDoUpdate({
        target: [ledgerBalances.merchantId, ledgerBalances.mode, ledgerBalances.account],
        set: { balanceKobo: sql`${ledgerBalances.balanceKobo} + excluded.balance_kobo` },
      });
  }
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
