// The bench's history on PostgreSQL: the same rows as bench/seed.ts, thousands a statement, in one transaction.
import type pg from "pg";
import { BULK_INSERT_PG_SQL, byColumnName, completeRow } from "./payment-rows";
import { seedRows, type SeedPlan } from "./seed";

const ROWS_A_STATEMENT = 5_000;

/**
 * As `seedPayments` does on SQLite: a row whose dial code or account the server already issued at random is skipped
 * (`on conflict do nothing`) and replaced by a later-numbered one, so exactly `count` rows go in.
 */
export async function seedPostgresPayments(
  client: pg.ClientBase,
  plan: SeedPlan,
): Promise<{ nextIndex: number; referencesOfFirst: string[] }> {
  const first = plan.merchants[0]?.id;
  const referencesOfFirst: string[] = [];
  let nextIndex = plan.firstIndex;
  const flush = async (batch: Record<string, unknown>[]): Promise<number> => {
    if (batch.length === 0) return 0;
    const { rows } = await client.query<{ merchant_id: string; payment_reference: string }>(BULK_INSERT_PG_SQL, [JSON.stringify(batch)]);
    for (const r of rows) if (r.merchant_id === first) referencesOfFirst.push(r.payment_reference);
    return batch.length - rows.length;
  };
  await client.query("begin");
  try {
    for (let wanted = plan.count; wanted > 0;) {
      const rows = seedRows({ ...plan, firstIndex: nextIndex, count: wanted });
      nextIndex += wanted;
      wanted = 0;
      let batch: Record<string, unknown>[] = [];
      for (const row of rows) {
        batch.push(byColumnName(completeRow(row)));
        if (batch.length === ROWS_A_STATEMENT) {
          wanted += await flush(batch);
          batch = [];
        }
      }
      wanted += await flush(batch);
    }
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  }
  // The planner's statistics, as autovacuum would have them after a load this size.
  await client.query("analyze payments");
  return { nextIndex, referencesOfFirst };
}
