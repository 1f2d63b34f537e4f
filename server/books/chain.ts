// The hash chain (API.md "Ledger and balances"): each entry's hash is SHA-256 of the previous entry's hash and the
// entry's canonical bytes, so rewriting one entry breaks every hash after it, and a rewritten, re-hashed chain ends in
// a head that differs from one anybody kept.
import { createHash } from "node:crypto";

/** The previous hash of an entry that starts a chain. */
export const GENESIS_HASH = "0".repeat(64);

export type ChainedEntry = {
  entryId: string;
  merchantId: string;
  mode: string;
  sequence: number;
  kind: string;
  reason: string | null;
  paymentReference: string | null;
  refundReference: string | null;
  settlementId: string | null;
  reversesEntryId: string | null;
  postedAt: number;
  postings: { account: string; amountKobo: number }[];
};

/** JSON with its keys sorted at every depth; arrays keep their order. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(record[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

type SubjectKey = "kind" | "reason" | "paymentReference" | "refundReference" | "settlementId";

/**
 * What an entry books and what it belongs to: its kind, reason and the payment, refund or settlement it is for. The
 * chain hashes these and the ledger's entries show them, so a new reference reaches both or neither.
 */
export function entrySubject<E extends Pick<ChainedEntry, SubjectKey>>(e: E): Pick<E, SubjectKey> {
  return {
    kind: e.kind,
    reason: e.reason,
    paymentReference: e.paymentReference,
    refundReference: e.refundReference,
    settlementId: e.settlementId,
  };
}

/** Amounts as kobo integer strings (no float, no naira formatting); times as epoch milliseconds. */
export function canonicalBytes(e: ChainedEntry): string {
  // sortedJson orders the keys, so where the subject's keys are spread changes no byte.
  return sortedJson({
    entryId: e.entryId,
    merchantId: e.merchantId,
    mode: e.mode,
    sequence: e.sequence,
    ...entrySubject(e),
    reversesEntryId: e.reversesEntryId,
    postedAt: e.postedAt,
    postings: e.postings.map((p) => ({ account: p.account, amount: String(p.amountKobo) })),
  });
}

export function chainHash(previousHash: string, e: ChainedEntry): string {
  return createHash("sha256").update(previousHash).update(canonicalBytes(e)).digest("hex");
}

/**
 * The canonical bytes on either side of the sequence, for a writer whose database places the entry in the chain (the
 * sequence is known only there): `before + sequence + after` is `canonicalBytes`. Keys are sorted and string values
 * JSON-escaped, so `"sequence":` unquoted occurs once.
 */
export function canonicalAroundSequence(e: Omit<ChainedEntry, "sequence">): [before: string, after: string] {
  const bytes = canonicalBytes({ ...e, sequence: 0 });
  const at = bytes.indexOf(SEQUENCE_KEY);
  if (at < 0 || bytes.indexOf(SEQUENCE_KEY, at + 1) >= 0) throw new Error("canonical bytes: the sequence key is not unique");
  return [bytes.slice(0, at + SEQUENCE_KEY.length - 1), bytes.slice(at + SEQUENCE_KEY.length)];
}

const SEQUENCE_KEY = '"sequence":0';
