// Loops that run once per database (the expiry sweeper, the requery loop; server/leases.ts), held on PostgreSQL by a
// session-level advisory lock on one connection this process keeps for its life. A lease row must run out before a
// survivor may take a dead holder's loop; a session lock goes the moment its connection closes, which a killed
// process's does at once (the kernel closes its sockets, and PostgreSQL ends the session on the closed socket), so a
// survivor takes the loop on its next pass. The connection is its own, beside the pool: a lock must stay on one
// session, and a pooled client would keep a query's connection from the requests for as long as the process lives.
import { createHash } from "node:crypto";
import pg from "pg";

export type LoopLocks = {
  /** True while this process holds `name`: taken when free, then kept until released or the connection is lost. */
  hold(name: string): Promise<boolean>;
  /** Hands `name` back at once (a stopping instance), so a survivor need not wait at all. */
  release(name: string): Promise<void>;
  /** Ends the connection, and with it every lock it held. */
  close(): Promise<void>;
};

/** The lock's 64-bit key, the same for a loop on every instance; pg_locks shows it as classid (high half) and objid. */
export function loopLockKey(name: string): bigint {
  return createHash("sha256").update(`owo loop ${name}`).digest().readBigInt64BE(0);
}

type Session = { client: pg.Client; ready: Promise<unknown> };

export function advisoryLoopLocks(url: string, statementTimeoutMs: number): LoopLocks {
  let current: Session | null = null;
  const held = new Set<string>();
  const taking = new Map<string, Promise<boolean>>();

  /** The session is gone or in doubt: its locks are (or, once it is ended, will be) PostgreSQL's to give to another. */
  const forget = (session: Session) => {
    if (current !== session) return;
    current = null;
    held.clear();
    session.client.end().catch(() => undefined);
  };

  const query = async (text: string, values: unknown[] = []) => {
    if (!current) {
      // Named after the process, so pg_stat_activity beside pg_locks tells an operator which instance runs the loops.
      const client = new pg.Client({
        connectionString: url,
        statement_timeout: statementTimeoutMs,
        keepAlive: true,
        application_name: `owo loops pid ${process.pid}`,
      });
      const session: Session = { client, ready: client.connect() };
      client.on("error", () => forget(session));
      client.on("end", () => forget(session));
      current = session;
    }
    const session = current;
    try {
      await session.ready;
      return await session.client.query<{ taken?: boolean }>(text, values);
    } catch (err) {
      forget(session);
      throw err;
    }
  };

  const take = async (name: string): Promise<boolean> => {
    if (held.has(name)) {
      // The session answers, so it still holds what it took (a session lock ends only with the session or an unlock).
      await query("select 1");
      return held.has(name);
    }
    // Taken once only: a session lock taken twice must be unlocked twice.
    const { rows } = await query("select pg_try_advisory_lock($1::bigint) as taken", [loopLockKey(name).toString()]);
    if (rows[0]?.taken === true) held.add(name);
    return held.has(name);
  };

  return {
    hold(name) {
      let pending = taking.get(name);
      if (!pending) {
        pending = take(name).finally(() => taking.delete(name));
        taking.set(name, pending);
      }
      return pending;
    },
    async release(name) {
      await taking.get(name)?.catch(() => undefined);
      if (!held.delete(name)) return;
      // An unlock that fails has ended the session (forget), which drops the lock as surely.
      await query("select pg_advisory_unlock($1::bigint)", [loopLockKey(name).toString()]).catch(() => undefined);
    },
    async close() {
      const session = current;
      current = null;
      held.clear();
      await session?.client.end().catch(() => undefined);
    },
  };
}
