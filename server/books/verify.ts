// `owo ledger verify` (API.md "Ledger and balances"): recomputes every chain from its first entry and every balance
// from the postings, and stops at the first fault. Reads in one snapshot, a merchant and mode at a time, in pages.
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { readSnapshot, type Db } from "../../db/client";
import { ledgerBalances, ledgerEntries, ledgerHeads, ledgerPostings, merchants, type Mode } from "../../db/schema";
import { ApiError } from "../api-error";
import { chainHash, GENESIS_HASH } from "./chain";
import { keptHeadFault, parseKeptHead, type Fault } from "./kept-head";

export type Verdict = { ok: true; entries: number } | { ok: false; fault: Fault };

const PAGE = 1000;

/** One merchant and mode's chain and balances; null when sound. */
async function verifyBooks(q: Db, merchantId: string, mode: Mode, counted: { entries: number }): Promise<Fault | null> {
  const fault = (entryId: string | null, reason: string): Fault => ({ merchantId, mode, entryId, reason });
  const sums = new Map<string, number>();
  let previousHash = GENESIS_HASH;
  let sequence = 0;
  let lastId: string | null = null;
  for (;;) {
    const page = await q
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.merchantId, merchantId), eq(ledgerEntries.mode, mode), gt(ledgerEntries.sequence, sequence)))
      .orderBy(asc(ledgerEntries.sequence))
      .limit(PAGE);
    if (page.length === 0) break;
    const postings = await q
      .select()
      .from(ledgerPostings)
      .where(
        inArray(
          ledgerPostings.entryId,
          page.map((e) => e.id),
        ),
      )
      .orderBy(asc(ledgerPostings.entryId), asc(ledgerPostings.line));
    const byEntry = new Map<string, typeof postings>();
    for (const p of postings) byEntry.set(p.entryId, [...(byEntry.get(p.entryId) ?? []), p]);
    for (const e of page) {
      if (e.sequence !== sequence + 1) return fault(e.id, `sequence ${e.sequence} follows ${sequence}${lastId ? ` (${lastId})` : ""}`);
      const lines = byEntry.get(e.id) ?? [];
      if (lines.length < 2) return fault(e.id, `${lines.length} postings`);
      let sum = 0n;
      for (const p of lines) {
        sum += BigInt(p.amountKobo);
        sums.set(p.account, (sums.get(p.account) ?? 0) + p.amountKobo);
      }
      if (sum !== 0n) return fault(e.id, `postings sum to ${sum} kobo`);
      const hash = chainHash(previousHash, { ...e, entryId: e.id, postings: lines });
      if (hash !== e.hash) return fault(e.id, "hash does not match the entry and the one before it");
      previousHash = e.hash;
      sequence = e.sequence;
      lastId = e.id;
      counted.entries++;
    }
  }
  const [head] = await q
    .select()
    .from(ledgerHeads)
    .where(and(eq(ledgerHeads.merchantId, merchantId), eq(ledgerHeads.mode, mode)));
  if ((head?.sequence ?? 0) !== sequence || (head?.hash ?? GENESIS_HASH) !== previousHash)
    return fault(lastId, `stored head ${head?.sequence ?? 0}:${head?.hash ?? GENESIS_HASH} is not the chain's ${sequence}:${previousHash}`);
  const stored = await q
    .select()
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.merchantId, merchantId), eq(ledgerBalances.mode, mode)));
  for (const b of stored) {
    const summed = sums.get(b.account) ?? 0;
    if (b.balanceKobo !== summed) return fault(null, `balance of ${b.account} is ${b.balanceKobo} kobo, its postings sum to ${summed}`);
    sums.delete(b.account);
  }
  for (const [account, summed] of sums) if (summed !== 0) return fault(null, `${account} has postings (${summed} kobo) and no balance`);
  return null;
}

/**
 * Every chain (or one merchant's), in one committed state; the first fault ends it. `expectHead` is a head kept earlier,
 * "<sequence>:<hash>", that the merchant's chain of `mode` must still hold (kept-head.ts; without a mode, whichever of its
 * chains holds it).
 */
export async function verifyLedger(options: { merchantId?: string; mode?: Mode; expectHead?: string } = {}): Promise<Verdict> {
  const kept = options.expectHead === undefined ? null : parseKeptHead(options.expectHead);
  const { merchantId } = options;
  // A head belongs to one merchant's books.
  if (kept && !merchantId) throw new ApiError("S5", "--expect-head needs --merchant <merchantId>: a head belongs to one merchant's chain");
  return readSnapshot(async (q) => {
    // An unknown id has no books, which would read as sound books: a mistyped id must not pass for a check.
    if (merchantId && !(await q.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)))[0])
      throw new ApiError("S404", `No merchant ${merchantId}`);
    const books = await q
      .selectDistinct({ merchantId: ledgerHeads.merchantId, mode: ledgerHeads.mode })
      .from(ledgerHeads)
      .where(merchantId ? eq(ledgerHeads.merchantId, merchantId) : undefined);
    const fromEntries = await q
      .selectDistinct({ merchantId: ledgerEntries.merchantId, mode: ledgerEntries.mode })
      .from(ledgerEntries)
      .where(merchantId ? eq(ledgerEntries.merchantId, merchantId) : undefined);
    const all = new Map([...books, ...fromEntries].map((b) => [`${b.merchantId}/${b.mode}`, b]));
    const counted = { entries: 0 };
    for (const b of [...all.values()].sort((x, y) => `${x.merchantId}/${x.mode}`.localeCompare(`${y.merchantId}/${y.mode}`))) {
      const fault = await verifyBooks(q, b.merchantId, b.mode, counted);
      if (fault) return { ok: false, fault };
    }
    // Checked once the chains are: a kept head is only worth comparing with a chain that holds together.
    const fault = kept && merchantId ? await keptHeadFault(q, merchantId, options.mode, kept) : null;
    if (fault) return { ok: false, fault };
    return { ok: true, entries: counted.entries };
  });
}
