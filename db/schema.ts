// The tables the services query, for the database this process runs on. The services are written once, against
// db/schema-sqlite.ts's types; on PostgreSQL the same names hold db/schema-pg.ts's tables (generated from the SQLite
// files, column for column, and checked by db/schema-parity.test.ts), and Drizzle builds each query in the dialect of
// the database it runs on. Each name stands for its table lazily: the dialect is chosen (environment.ts
// databaseDialect) when a query first touches a table, not when this module is imported, so a process or a test may
// set DATABASE_URL after its imports.
import * as sqlite from "./schema-sqlite";
import * as postgres from "./schema-pg";
import { databaseDialect } from "../environment";

export type * from "./schema-sqlite";

export type Tables = typeof sqlite;

// PostgreSQL's tables stand in for SQLite's under SQLite's types (same names, same columns, same value types: bigint
// in number mode, boolean for 0/1 flags).
const chosen = (): Tables => (databaseDialect() === "postgres" ? (postgres as unknown as Tables) : sqlite);

/**
 * The table `name` of the chosen dialect, behind a Proxy that forwards every reading (its columns, Drizzle's symbols,
 * its prototype, so Drizzle's `is(table, SQLiteTable | PgTable)` answers for the real one). Its target is an empty
 * object, so nothing of the other dialect's table can show through a trap left out.
 */
function lazyTable<K extends keyof Tables>(name: K): Tables[K] {
  const real = () => chosen()[name] as object;
  return new Proxy({} as Tables[K], {
    get: (_, key) => Reflect.get(real(), key),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}

/**
 * The tables as db/tables declares them: their column names and enum values are the same on both dialects
 * (db/schema-parity.test.ts), so a module may read those when it is imported, before any dialect is chosen. Never
 * for a query: that is what the names below are for.
 */
export const declaredTables: Tables = sqlite;

export const merchants = lazyTable("merchants");
export const merchantLogos = lazyTable("merchantLogos");
export const users = lazyTable("users");
export const recoveryCodes = lazyTable("recoveryCodes");
export const secondFactorFailures = lazyTable("secondFactorFailures");
export const accountTokens = lazyTable("accountTokens");
export const knownDevices = lazyTable("knownDevices");
export const memberships = lazyTable("memberships");
export const apiKeys = lazyTable("apiKeys");
export const apiSecrets = lazyTable("apiSecrets");
export const accessTokens = lazyTable("accessTokens");
export const signingSecrets = lazyTable("signingSecrets");
export const paymentLinks = lazyTable("paymentLinks");
export const providerAccounts = lazyTable("providerAccounts");
export const payments = lazyTable("payments");
export const paymentEvents = lazyTable("paymentEvents");
export const bankNotices = lazyTable("bankNotices");
export const providerNotices = lazyTable("providerNotices");
export const leases = lazyTable("leases");
export const refunds = lazyTable("refunds");
export const outbox = lazyTable("outbox");
export const webhookEndpoints = lazyTable("webhookEndpoints");
export const deliveries = lazyTable("deliveries");
export const deliveryAttempts = lazyTable("deliveryAttempts");
export const invites = lazyTable("invites");
export const auditLog = lazyTable("auditLog");
export const mails = lazyTable("mails");
export const sessions = lazyTable("sessions");
export const signInFailures = lazyTable("signInFailures");
export const rateBudgets = lazyTable("rateBudgets");
export const settlements = lazyTable("settlements");
export const settlementLines = lazyTable("settlementLines");
export const sandboxBankCredits = lazyTable("sandboxBankCredits");
export const sandboxBankRefunds = lazyTable("sandboxBankRefunds");
export const reconciliationExceptions = lazyTable("reconciliationExceptions");
export const bankStatementLines = lazyTable("bankStatementLines");
export const ledgerEntries = lazyTable("ledgerEntries");
export const ledgerPostings = lazyTable("ledgerPostings");
export const ledgerBalances = lazyTable("ledgerBalances");
export const ledgerHeads = lazyTable("ledgerHeads");
