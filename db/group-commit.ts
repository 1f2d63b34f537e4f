// SQLite group commit. SQLite runs one writer at a time and a COMMIT writes every page the transaction touched to
// the WAL, so under load most of a small transaction's cost was its BEGIN and COMMIT (bench/README.md). Transactions
// that arrive while the writer is busy, or in the same turn of the event loop, run one after another inside ONE
// BEGIN IMMEDIATE … COMMIT, each in its own SAVEPOINT: a body that throws rolls back to its savepoint only and its
// caller gets its error; every caller hears of success only after the shared COMMIT, and if that COMMIT fails, every
// body of the batch fails with it. Each body still sees the state left by those before it, as if they had committed:
// the order, isolation and durability the services rely on are those of one transaction at a time.
import type Database from "better-sqlite3";

type Waiting = { body: () => Promise<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A batch's callers wait for the slowest body in it, so a batch stays small enough to keep their latency. */
const MOST_IN_A_BATCH = 64;

/**
 * Runs write transactions on `writer` in arrival order, grouped. `inTurn` is the gate that owns the write connection
 * (db/sqlite-store.ts); a batch is one task of it.
 */
export function groupCommitter(
  writer: Database.Database,
  inTurn: <T>(task: () => Promise<T>) => Promise<T>,
): <T>(body: () => Promise<T>) => Promise<T> {
  // Prepared once: compiling these on every transaction was part of their cost.
  const begin = writer.prepare("begin immediate");
  const commit = writer.prepare("commit");
  const rollback = writer.prepare("rollback");
  const savepoint = writer.prepare("savepoint owo_body");
  const rollbackToSavepoint = writer.prepare("rollback to owo_body");
  const release = writer.prepare("release owo_body");
  const waiting: Waiting[] = [];

  async function runBody(job: Waiting, alone: boolean): Promise<Outcome> {
    if (!alone) savepoint.run();
    try {
      const value = await job.body();
      if (!alone) release.run();
      return { ok: true, value };
    } catch (error) {
      if (writer.inTransaction) {
        if (alone) rollback.run();
        else {
          rollbackToSavepoint.run();
          release.run();
        }
      }
      return { ok: false, error };
    }
  }

  async function runBatch(batch: Waiting[]): Promise<Outcome[]> {
    // A transaction left open by a batch whose rollback failed must not carry its writes into this one.
    if (writer.inTransaction) rollback.run();
    const outcomes: Outcome[] = [];
    for (const job of batch) {
      if (!writer.inTransaction) begin.run();
      const outcome = await runBody(job, batch.length === 1);
      // SQLite ended the whole transaction itself (a full disk, an I/O error): what the bodies before wrote is gone.
      if (!outcome.ok && !writer.inTransaction && batch.length > 1)
        outcomes.forEach((o, i) => o.ok && (outcomes[i] = { ok: false, error: outcome.error }));
      outcomes.push(outcome);
    }
    if (writer.inTransaction) {
      try {
        commit.run();
      } catch (error) {
        if (writer.inTransaction) rollback.run();
        return outcomes.map((o) => (o.ok ? { ok: false, error } : o));
      }
    }
    return outcomes;
  }

  async function runWaiting(): Promise<void> {
    const batch = waiting.splice(0, MOST_IN_A_BATCH);
    if (waiting.length > 0) void inTurn(runWaiting);
    let outcomes: Outcome[];
    try {
      outcomes = await runBatch(batch);
    } catch (error) {
      // BEGIN failed (another process held the write lock past busy_timeout), or a rollback did: nothing of the batch
      // is committed, so every caller fails with that error, even if the rollback below fails too.
      outcomes = batch.map(() => ({ ok: false, error }));
      try {
        if (writer.inTransaction) rollback.run();
      } catch {
        // Left to the next batch, which rolls back before it begins (and fails its callers if that fails again).
      }
    }
    batch.forEach((job, i) => {
      const outcome = outcomes[i] ?? { ok: false, error: new Error("the batch ended before this transaction ran") };
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }

  return <T>(body: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ body, resolve: resolve as (value: unknown) => void, reject });
      // The batch starts after this turn's I/O callbacks: requests read in the same turn join it instead of each
      // committing alone (a body's own awaits are all microtasks, so without this every batch would hold one).
      if (waiting.length === 1) setImmediate(() => void inTurn(runWaiting));
    });
}
