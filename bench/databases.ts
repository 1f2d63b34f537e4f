// The database a bench run measures on, either dialect: where Owo finds it, how the history is seeded, the floor's
// copy of it, and the database server's processes (PostgreSQL's; SQLite runs inside the servers).
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type pg from "pg";
import { onPostgres, startPostgres } from "../db/throwaway-postgres";
import { findProcess, processTree, type CpuParties } from "./cpu";
import type { Dialect } from "./options";
import { seedPostgresBooks, seedSqliteBooks } from "./seed-books";
import { seedPostgresPayments } from "./seed-postgres";
import { seedPayments, type SeedPlan } from "./seed";

/** `entries`: the ledger entries booked for the seeded payments (bench/seed-books.ts). */
export type Seeded = { nextIndex: number; referencesOfFirst: string[]; entries: number };

export type BenchDatabase = {
  dialect: Dialect;
  /** Owo's DATABASE_URL. */
  url: string;
  /** Bulk rows straight into the database; Owo must be stopped (SQLite switches its journal for the load). */
  seed(plan: SeedPlan): Promise<Seeded>;
  paymentsOf(merchantId: string): Promise<number>;
  /** Ledger entries of a merchant's books. */
  entriesOf(merchantId: string): Promise<number>;
  /** Books in bulk the payments with money and no entry (bench/seed-books.ts), as left by an Owo with posting off, so
   * the next Owo's start-up finds nothing to book one payment at a time. Owo must be stopped. */
  bookPaid(): Promise<number>;
  /** The writes so far put to rest, so a measured leg does not pay for the ones before it: SQLite's WAL written back
   * into the file and emptied; PostgreSQL checkpointed, vacuumed and analyzed. Owo must be stopped. */
  settle(): Promise<void>;
  /** Open sandbox payments of a merchant that stay open for a while yet, newest first. */
  openReferencesOf(merchantId: string, limit: number): Promise<string[]>;
  /** Points the callbacks of a merchant's open payments at `url`; answers how many. */
  callbacksTo(merchantId: string, url: string): Promise<number>;
  /** A copy of the database as it is now, for the floor (a file copy; PostgreSQL: a database made from it as a template). */
  floorCopy(): Promise<string>;
  /** The database server's own processes, for the CPU account. */
  parties(): CpuParties;
  /** Running totals of the database at `url` (PostgreSQL's pg_stat_database); none for SQLite. */
  counters(url: string): (() => Promise<Record<string, number>>) | undefined;
  close(): Promise<void>;
};

/** Open long enough to be credited within the run, so a credit is never a late one. */
const OPEN_FOR_MS = 5 * 60_000;
const CALLBACKS_TO = "update payments set callback_url = $1 where merchant_id = $2 and status = 'PENDING'";
const OPEN_REFERENCES = `select payment_reference as ref from payments where merchant_id = $1 and mode = 'test' and status = 'PENDING'
  and provider_account_id is null and reserved_at is null and expires_at > $2 order by id desc limit $3`;

function sqliteDatabase(dataDir: string): BenchDatabase {
  const path = join(dataDir, "owo.db");
  // The bench's own connection each time: the bulk load switches the journal mode, which only a lone connection may.
  const withFile = <T>(use: (file: Database.Database) => T): T => {
    const file = new Database(path);
    try {
      return use(file);
    } finally {
      file.close();
    }
  };
  return {
    dialect: "sqlite",
    url: path,
    seed: async (plan) =>
      withFile((file) => {
        const seeded = seedPayments(file, plan);
        return { ...seeded, entries: seedSqliteBooks(file) };
      }),
    bookPaid: async () => withFile(seedSqliteBooks),
    settle: async () => void withFile((file) => file.pragma("wal_checkpoint(TRUNCATE)")),
    paymentsOf: async (merchantId) =>
      withFile((file) => (file.prepare("select count(*) as n from payments where merchant_id = ?").get(merchantId) as { n: number }).n),
    entriesOf: async (merchantId) =>
      withFile(
        (file) => (file.prepare("select count(*) as n from ledger_entries where merchant_id = ?").get(merchantId) as { n: number }).n,
      ),
    openReferencesOf: async (merchantId, limit) =>
      withFile(
        (file) =>
          file
            .prepare(OPEN_REFERENCES.replace(/\$\d/g, "?"))
            .pluck()
            .all(merchantId, Date.now() + OPEN_FOR_MS, limit) as string[],
      ),
    callbacksTo: async (merchantId, url) =>
      withFile((file) => file.prepare(CALLBACKS_TO.replace(/\$\d/g, "?")).run(url, merchantId).changes),
    async floorCopy() {
      const floorDir = join(dataDir, "floor");
      mkdirSync(floorDir);
      copyFileSync(path, join(floorDir, "owo.db"));
      return join(floorDir, "owo.db");
    },
    parties: () => ({}),
    counters: () => undefined,
    close: async () => undefined,
  };
}

async function postgresDatabase(durable: boolean): Promise<BenchDatabase> {
  const server = await startPostgres({ durable });
  const port = new URL(server.url).port;
  const url = await server.createDatabase("owo_bench");
  const withClient = <T>(use: (client: pg.Client) => Promise<T>): Promise<T> => onPostgres(url, use);
  const postmaster = findProcess(["-p", port, "listen_addresses=127.0.0.1"]);
  if (postmaster === null) console.log("  (PostgreSQL's postmaster not found in /proc: its CPU is not accounted for)");
  return {
    dialect: "postgres",
    url,
    seed: (plan) =>
      withClient(async (client) => {
        const seeded = await seedPostgresPayments(client, plan);
        return { ...seeded, entries: await seedPostgresBooks(client) };
      }),
    bookPaid: () => withClient(seedPostgresBooks),
    settle: () =>
      withClient(async (client) => {
        await client.query("vacuum analyze");
        await client.query("checkpoint");
      }),
    paymentsOf: (merchantId) =>
      withClient(async (client) =>
        Number((await client.query<{ n: string }>("select count(*) as n from payments where merchant_id = $1", [merchantId])).rows[0]?.n),
      ),
    entriesOf: (merchantId) =>
      withClient(async (client) =>
        Number(
          (await client.query<{ n: string }>("select count(*) as n from ledger_entries where merchant_id = $1", [merchantId])).rows[0]?.n,
        ),
      ),
    openReferencesOf: (merchantId, limit) =>
      withClient(async (client) =>
        (await client.query<{ ref: string }>(OPEN_REFERENCES, [merchantId, Date.now() + OPEN_FOR_MS, limit])).rows.map((r) => r.ref),
      ),
    callbacksTo: (merchantId, url) => withClient(async (client) => (await client.query(CALLBACKS_TO, [url, merchantId])).rowCount ?? 0),
    async floorCopy() {
      // A template copy is a file-level copy inside PostgreSQL: no one may be connected to the source meanwhile.
      await onPostgres(server.url, (admin) => admin.query("create database owo_floor template owo_bench"));
      return server.databaseUrl("owo_floor");
    },
    parties: (): CpuParties => (postmaster === null ? {} : { postgres: () => processTree(postmaster) }),
    counters: (of) => async () =>
      onPostgres(of, async (client) => {
        const { rows } = await client.query<{ commits: string; rollbacks: string }>(
          "select xact_commit as commits, xact_rollback as rollbacks from pg_stat_database where datname = current_database()",
        );
        // This reading's own connection commits nothing worth counting; the totals are what Owo or the floor did.
        return { commits: Number(rows[0]?.commits ?? 0), rollbacks: Number(rows[0]?.rollbacks ?? 0) };
      }),
    close: async () => server.stop(),
  };
}

/** `durable`: PostgreSQL syncing its WAL at commit, as deployed (`--durable`); SQLite always runs as Owo runs it. */
export function openBenchDatabase(dialect: Dialect, dataDir: string, options: { durable?: boolean } = {}): Promise<BenchDatabase> {
  return dialect === "sqlite" ? Promise.resolve(sqliteDatabase(dataDir)) : postgresDatabase(options.durable ?? false);
}
