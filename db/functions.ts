// SQL functions the two databases spell differently, spelled for the database this process runs on, so that a
// service's query reads the same on both (the dialect environment.ts chose, asked at the call).
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { databaseDialect } from "../environment";

const onPostgres = () => databaseDialect() === "postgres";

/**
 * The column, kept from SQLite's index choice (SQLite's unary plus, for a condition the planner would otherwise use an
 * index for badly); PostgreSQL's planner needs no such hint, and `+text` is no expression there.
 */
export function unindexed(column: SQLWrapper): SQL {
  return onPostgres() ? sql`${column}` : sql`+${column}`;
}

/**
 * `select picked.* from <rows> …`: for each row of `rows` (a name the statement's WITH gave), the rows of `table` that
 * `pick` chooses: `where … order by … limit n` over `table` as `alias`, naming `rows`. PostgreSQL runs it once per row
 * as a LATERAL join. SQLite has no LATERAL; there a join on `id in (…)` does the same, one indexed lookup per row
 * (PostgreSQL's planner would compare every row of `table` with every pick instead).
 */
export function picksPerRow(rows: string, table: SQLWrapper, alias: string, pick: SQL): SQL {
  const [from, as] = [sql.raw(rows), sql.raw(alias)];
  return onPostgres()
    ? sql`select picked.* from ${from} cross join lateral (select ${as}.* from ${table} as ${as} ${pick}) as picked`
    : sql`select picked.* from ${from} join ${table} as picked on picked.id in (select ${as}.id from ${table} as ${as} ${pick})`;
}

/**
 * `column` is one of `values`, sent as one parameter however many they are: PostgreSQL's `= any($1)` takes an array,
 * SQLite reads a JSON array with json_each. A list of one parameter each (Drizzle's inArray) cost a batch of 1,000
 * ids more in building, binding and planning than the lookups themselves (bench/README.md, the export).
 */
export function oneOf(column: SQLWrapper, values: readonly (number | string)[]): SQL {
  return onPostgres()
    ? sql`${column} = any(${sql.param(values)})`
    : sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;
}

/**
 * A select inside `write()` that locks the rows it returns against every other claimer, skipping rows another
 * transaction holds instead of waiting for them: PostgreSQL's `FOR UPDATE SKIP LOCKED`, so racing claimers take
 * disjoint rows in read committed and none is retried. The query must not group or rank (FOR UPDATE refuses window
 * functions): rank in a subquery and lock here by id, with the dueness condition repeated, since PostgreSQL checks it
 * again on the newest version of each row it locks. SQLite's write transaction (BEGIN IMMEDIATE) already keeps every
 * other writer out until it ends, so there the query is left as it is.
 */
export function skippingLocked<Q>(query: Q): Q {
  if (!onPostgres()) return query;
  // The services hold PostgreSQL's query builder under SQLite's type (db/store.ts); at run time it has `for`.
  return (query as unknown as { for(strength: "update", config: { skipLocked: true }): Q }).for("update", { skipLocked: true });
}

/**
 * A select inside a read committed `write()` that locks the rows it returns until commit, waiting for any other holder
 * and then reading the row as that one left it: PostgreSQL's `FOR UPDATE`, so a decision made on the row stands.
 * SQLite's write transaction already keeps every other writer out, so there the query is left as it is.
 */
export function lockedForUpdate<Q>(query: Q): Q {
  if (!onPostgres()) return query;
  return (query as unknown as { for(strength: "update"): Q }).for("update");
}
