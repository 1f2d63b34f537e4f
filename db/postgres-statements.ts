// PostgreSQL's own statements for hot paths, beside Drizzle's query builders (db/client.ts): a named statement run in a
// write transaction or on the pool, and a statement deferred to its transaction's COMMIT.
import { trace } from "@opentelemetry/api";
import type pg from "pg";
import { db, dialect, insideTransaction, isCurrentWrite, type Tx } from "./client";
import { DeferringClient } from "./postgres-transaction";

const tracer = trace.getTracer("owo");

/**
 * PostgreSQL only: one statement Drizzle cannot build (several data-modifying WITH parts, arrays unnested), parsed once
 * per connection under `name`, for a hot path where each round trip is time every other writer (of a queue) waits. It
 * runs in the write transaction `tx`; or, given `db()` outside any transaction, on the pool as a transaction of its own
 * (autocommit), for a caller whose one statement is all its write.
 */
export async function postgresStatement<R>(tx: Tx, name: string, text: string, values: unknown[]): Promise<R[]> {
  // Drizzle's node-postgres database keeps its client as `session.client`: the pool outside a transaction, a write
  // transaction's DeferringClient inside one (db/postgres-transaction.ts), which sends what was deferred first.
  const client = (tx as unknown as { session?: { client?: { query: pg.ClientBase["query"] } } }).session?.client;
  const inside = insideTransaction();
  const where = inside ? isCurrentWrite(tx) : tx === db();
  if (!where || !client || dialect() !== "postgres")
    throw new Error(`${name}: a PostgreSQL write transaction, or the pool outside one, only`);
  const run = async () => (await client.query<R & pg.QueryResultRow>({ name, text, values })).rows;
  // Outside a transaction (a sandbox initiation's one write on PostgreSQL) the statement is the request's database
  // work, so a recording request span shows it as a transaction's would be shown; inside one, the transaction's span has it.
  if (inside || !trace.getActiveSpan()?.isRecording()) return run();
  return tracer.startActiveSpan("db.statement", { attributes: { "db.system": "postgres", "db.operation.name": name } }, async (span) => {
    try {
      return await run();
    } finally {
      span.end();
    }
  });
}

/**
 * PostgreSQL only: a statement of the write transaction `tx` sent with its COMMIT, in the same message
 * (db/postgres-transaction.ts), or before the transaction's next statement if it has one, so the body still reads it.
 * For the last write of a hot path (the books' posting), whose round trip and queue would otherwise cost every other
 * writer of the queue. `text` carries its values as literals (db/postgres-literals.ts): it goes in the simple protocol.
 */
export function postgresAtCommit(tx: Tx, text: string): void {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  if (!isCurrentWrite(tx) || !(client instanceof DeferringClient))
    throw new Error("postgresAtCommit: inside a PostgreSQL write transaction only");
  client.defer(text);
}
