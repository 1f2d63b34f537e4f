// The merchant's books (API.md "Ledger and balances"): a double-entry ledger per merchant and mode, in integer kobo.
// Entries and postings are written once and never changed (triggers refuse it, db/migrations*/ *_ledger_immutable.sql);
// balances and chain heads are kept beside them in the same transaction (server/books/post.ts).
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { merchants } from "./people";
import { payments } from "./payments";

/** One money movement; its postings sum to zero. `hash` chains it to the previous entry of its merchant and mode. */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** 1, 2, … per merchant and mode. */
    sequence: integer("sequence").notNull(),
    kind: text("kind", {
      enum: ["credit", "late_credit", "refund", "settlement", "settlement_failed", "adjustment", "reversal"],
    }).notNull(),
    /** An adjustment's reason (chargeback, stamp_duty, …); null for the other kinds. */
    reason: text("reason"),
    paymentId: integer("payment_id").references(() => payments.id),
    /** Kept as written so the canonical bytes never need a join. */
    paymentReference: text("payment_reference"),
    refundReference: text("refund_reference"),
    settlementId: text("settlement_id"),
    /** The entry a reversal undoes. */
    reversesEntryId: text("reverses_entry_id"),
    postedAt: integer("posted_at").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    uniqueIndex("ledger_entries_sequence").on(t.merchantId, t.mode, t.sequence),
    index("ledger_entries_payment").on(t.paymentId),
    index("ledger_entries_posted").on(t.merchantId, t.mode, t.postedAt),
  ],
);

/** One side of an entry: debits positive, credits negative. `line` keeps the order the canonical bytes use. */
export const ledgerPostings = sqliteTable(
  "ledger_postings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id),
    line: integer("line").notNull(),
    account: text("account").notNull(),
    amountKobo: integer("amount_kobo").notNull(),
  },
  (t) => [uniqueIndex("ledger_postings_line").on(t.entryId, t.line)],
);

/** Each account's balance (debits − credits), moved by every posting in the posting's own transaction. */
export const ledgerBalances = sqliteTable(
  "ledger_balances",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    account: text("account").notNull(),
    balanceKobo: integer("balance_kobo").notNull(),
  },
  (t) => [uniqueIndex("ledger_balances_account").on(t.merchantId, t.mode, t.account)],
);

/** The chain's head per merchant and mode: the one row every posting of that books moves (and so waits on). */
export const ledgerHeads = sqliteTable(
  "ledger_heads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    sequence: integer("sequence").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [uniqueIndex("ledger_heads_books").on(t.merchantId, t.mode)],
);

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
export type LedgerPostingRow = typeof ledgerPostings.$inferSelect;
