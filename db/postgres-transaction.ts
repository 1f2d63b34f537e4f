// A PostgreSQL write transaction on one pooled client, begun and ended by Owo rather than Drizzle, so that what its body
// leaves for commit goes with the COMMIT: the books' posting (server/books/post.ts) is sent with it as one message. A
// posting then costs no round trip of its own, and the merchant's queue, taken inside it, is held only while PostgreSQL
// runs that message, never across a round trip to a busy Node process (bench/README.md).
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import type pg from "pg";
import * as schema from "./schema-pg";
import type { Isolation } from "./store";

type Query = (...args: unknown[]) => Promise<unknown>;

/**
 * The client a transaction's Drizzle database runs its statements on. A statement deferred to commit is sent before
 * the transaction's next statement, so the body still reads its own writes; those left at the end go with COMMIT.
 */
export class DeferringClient {
  private deferred: string[] = [];

  constructor(readonly pooled: pg.PoolClient) {}

  /** `text` has no parameters: it is sent in the simple protocol, where several statements make one message. */
  defer(text: string): void {
    this.deferred.push(text);
  }

  private flushed(): Promise<unknown> | null {
    if (this.deferred.length === 0) return null;
    const text = this.deferred.join(";\n");
    this.deferred = [];
    return this.pooled.query(text);
  }

  // Drizzle and db/postgres-statements.ts `postgresStatement` call the promise forms of pg's overloaded `query`; the arguments
  // are passed on as they came.
  query: Query = (...args) => {
    const query = this.pooled.query.bind(this.pooled) as unknown as Query;
    const before = this.flushed();
    return before ? before.then(() => query(...args)) : query(...args);
  };

  async begin(isolation: Isolation): Promise<void> {
    this.deferred = [];
    await this.pooled.query(`begin isolation level ${isolation}`);
  }

  async commit(): Promise<void> {
    const text = [...this.deferred, "commit"].join(";\n");
    this.deferred = [];
    await this.pooled.query(text);
  }

  async rollback(): Promise<void> {
    this.deferred = [];
    await this.pooled.query("rollback");
  }
}

export type Session = { client: DeferringClient; database: NodePgDatabase<typeof schema> };

const sessions = new WeakMap<pg.PoolClient, Session>();

/** The pooled client's session, made once: a Drizzle database reads the whole schema when it is made. */
export function sessionOf(pooled: pg.PoolClient): Session {
  let session = sessions.get(pooled);
  if (!session) {
    const client = new DeferringClient(pooled);
    // Drizzle runs every statement through the client's `query`, which is all a DeferringClient offers.
    session = { client, database: drizzle(client as unknown as pg.PoolClient, { schema }) };
    sessions.set(pooled, session);
  }
  return session;
}

/** BEGIN, the body, then COMMIT with what the body deferred; ROLLBACK when either fails. */
export async function inTransaction<T>(
  session: Session,
  isolation: Isolation,
  body: (d: NodePgDatabase<typeof schema>) => Promise<T>,
): Promise<T> {
  const { client, database } = session;
  await client.begin(isolation);
  try {
    const result = await body(database);
    await client.commit();
    return result;
  } catch (err) {
    // After a failed COMMIT the transaction is over already: this ROLLBACK only warns.
    await client.rollback().catch(() => undefined);
    throw err;
  }
}
