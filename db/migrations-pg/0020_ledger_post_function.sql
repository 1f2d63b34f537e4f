-- The books' posting on PostgreSQL (server/books/post.ts): one call places an entry in its merchant's chain and books
-- it. It is sent with the transaction's COMMIT in one message (db/postgres-transaction.ts), so a posting costs no round
-- trip of its own and the merchant's queue, taken here, is held only while PostgreSQL runs that message. PL/pgSQL
-- keeps each statement's plan for the connection's life.
-- The chain's hash is SHA-256 of the previous entry's hash (the genesis hash, 64 zeros, for the first), then the
-- canonical bytes before the sequence, the sequence, and the bytes after it (API.md "Ledger and balances", chain.ts).
CREATE FUNCTION "owo_post_entry"(
	p_entry_id text, p_merchant_id text, p_mode text, p_kind text, p_reason text, p_payment_id bigint,
	p_payment_reference text, p_refund_reference text, p_settlement_id text, p_reverses_entry_id text, p_posted_at bigint,
	p_accounts text[], p_amounts bigint[], p_canonical_before text, p_canonical_after text,
	p_balance_accounts text[], p_balance_amounts bigint[], p_queue_class integer, p_queue_key integer
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	placed_sequence bigint;
	placed_hash text;
BEGIN
	-- The merchant's queue (db/client.ts joinQueue): writers of one chain place their entries one after another.
	PERFORM pg_advisory_xact_lock(p_queue_class, p_queue_key);
	INSERT INTO ledger_heads AS head (merchant_id, mode, sequence, hash)
		VALUES (p_merchant_id, p_mode, 1,
			encode(sha256(convert_to(repeat('0', 64) || p_canonical_before || '1' || p_canonical_after, 'UTF8')), 'hex'))
		ON CONFLICT (merchant_id, mode) DO UPDATE SET sequence = head.sequence + 1,
			hash = encode(sha256(convert_to(head.hash || p_canonical_before || (head.sequence + 1)::text || p_canonical_after, 'UTF8')), 'hex')
		RETURNING head.sequence, head.hash INTO placed_sequence, placed_hash;
	INSERT INTO ledger_entries (id, merchant_id, mode, sequence, kind, reason, payment_id, payment_reference, refund_reference,
			settlement_id, reverses_entry_id, posted_at, hash)
		VALUES (p_entry_id, p_merchant_id, p_mode, placed_sequence, p_kind, p_reason, p_payment_id, p_payment_reference,
			p_refund_reference, p_settlement_id, p_reverses_entry_id, p_posted_at, placed_hash);
	INSERT INTO ledger_postings (entry_id, line, account, amount_kobo)
		SELECT p_entry_id, posting.line - 1, posting.account, posting.amount
		FROM unnest(p_accounts, p_amounts) WITH ORDINALITY AS posting(account, amount, line);
	INSERT INTO ledger_balances AS balance (merchant_id, mode, account, balance_kobo)
		SELECT p_merchant_id, p_mode, moved.account, moved.amount FROM unnest(p_balance_accounts, p_balance_amounts) AS moved(account, amount)
		ON CONFLICT (merchant_id, mode, account) DO UPDATE SET balance_kobo = balance.balance_kobo + excluded.balance_kobo;
END
$$;
