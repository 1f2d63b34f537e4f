// A ledger head someone kept (`ledger verify --expect-head <sequence>:<hash>`, API.md "Ledger and balances"), checked
// against the chain as it is now. A ledger only grows, so a head kept when the chain was shorter must still be in it: the
// entry at the kept sequence must still have the kept hash. A chain rewritten and re-hashed up to that entry fails this,
// however sound it is on its own; a chain that merely grew since passes. Every chain starts from the genesis hash, so
// `0:<64 zeros>` (the head `balances` shows for books with no entry yet) is in every chain.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { ledgerEntries, ledgerHeads, type Mode } from "../../db/schema";
import { ApiError } from "../api-error";
import { GENESIS_HASH } from "./chain";

export type KeptHead = { sequence: number; hash: string };

/** The first thing `ledger verify` finds wrong with a merchant's books (API.md: merchantId, mode, entryId, reason). */
export type Fault = { merchantId: string; mode: string; entryId: string | null; reason: string };

/** "812:9f86…" → { sequence: 812, hash }. At most 15 digits keep the sequence an exact number. */
export function parseKeptHead(text: string): KeptHead {
  const parts = /^(0|[1-9][0-9]{0,14}):([0-9a-fA-F]{64})$/.exec(text);
  if (!parts?.[1] || !parts[2])
    throw new ApiError(
      "S5",
      `--expect-head must be <sequence>:<64 hex digits>, as balances' ledgerHead gives them (0:${GENESIS_HASH} for books with no entry); got ${JSON.stringify(text)}`,
    );
  return { sequence: Number(parts[1]), hash: parts[2].toLowerCase() };
}

type Miss = { mode: Mode; entryId: string | null; why: string };

/** Why one chain does not hold the kept head (`why` reads after "…is not in the chain: "), or null when it does. */
async function missIn(q: Db, merchantId: string, mode: Mode, head: KeptHead): Promise<Miss | null> {
  if (head.sequence === 0)
    return head.hash === GENESIS_HASH ? null : { mode, entryId: null, why: `every chain starts from ${GENESIS_HASH}` };
  const [entry] = await q
    .select({ id: ledgerEntries.id, hash: ledgerEntries.hash })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.merchantId, merchantId), eq(ledgerEntries.mode, mode), eq(ledgerEntries.sequence, head.sequence)));
  // The chain was verified first, so its stored head is where it ends.
  const [stored] = await q
    .select({ sequence: ledgerHeads.sequence })
    .from(ledgerHeads)
    .where(and(eq(ledgerHeads.merchantId, merchantId), eq(ledgerHeads.mode, mode)));
  const end = stored?.sequence ?? 0;
  if (!entry) return { mode, entryId: null, why: `the chain ends at ${end}` };
  if (entry.hash !== head.hash) return { mode, entryId: entry.id, why: `entry ${head.sequence} now hashes to ${entry.hash}` };
  return null;
}

/**
 * The fault of a kept head that the merchant's chain does not hold, or null. With a mode, that chain is checked; without,
 * each of the merchant's chains that has entries (the test one when none has): a hash covers its entry's mode, so at most
 * one of them can hold it. When both are searched in vain, the live chain is named (the books of real money).
 */
export async function keptHeadFault(q: Db, merchantId: string, mode: Mode | undefined, head: KeptHead): Promise<Fault | null> {
  const kept = `${head.sequence}:${head.hash}`;
  let modes: Mode[] = mode ? [mode] : [];
  if (!mode) {
    const chains = await q
      .select({ mode: ledgerHeads.mode, sequence: ledgerHeads.sequence })
      .from(ledgerHeads)
      .where(eq(ledgerHeads.merchantId, merchantId));
    modes = (["test", "live"] as const).filter((m) => chains.some((c) => c.mode === m && c.sequence > 0));
    if (modes.length === 0) modes = ["test"];
  }
  const misses: Miss[] = [];
  for (const m of modes) {
    const miss = await missIn(q, merchantId, m, head);
    if (!miss) return null;
    misses.push(miss);
  }
  const [only, ...others] = misses;
  if (!only) return null;
  if (others.length === 0)
    return { merchantId, mode: only.mode, entryId: only.entryId, reason: `the kept head ${kept} is not in the chain: ${only.why}` };
  const named = misses.find((x) => x.mode === "live") ?? only;
  return {
    merchantId,
    mode: named.mode,
    entryId: named.entryId,
    reason: `the kept head ${kept} is in neither of the merchant's chains (--mode picks one): ${misses.map((x) => `${x.mode}: ${x.why}`).join("; ")}`,
  };
}
