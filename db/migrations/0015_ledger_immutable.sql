-- Hand-written (drizzle-kit has no triggers; keep this file when regenerating). The books are never edited
-- (API.md "Ledger and balances"): a mistake is corrected by a reversing entry, so the database itself refuses to
-- change or delete an entry or a posting.
CREATE TRIGGER `ledger_entries_no_update` BEFORE UPDATE ON `ledger_entries`
BEGIN SELECT RAISE(ABORT, 'ledger entries are never changed: post a reversal'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_entries_no_delete` BEFORE DELETE ON `ledger_entries`
BEGIN SELECT RAISE(ABORT, 'ledger entries are never deleted: post a reversal'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_postings_no_update` BEFORE UPDATE ON `ledger_postings`
BEGIN SELECT RAISE(ABORT, 'ledger postings are never changed: post a reversal'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_postings_no_delete` BEFORE DELETE ON `ledger_postings`
BEGIN SELECT RAISE(ABORT, 'ledger postings are never deleted: post a reversal'); END;
