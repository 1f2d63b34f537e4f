// The tables the services query, for the database this process runs on. The services are written once, against
// db/schema-sqlite.ts's types; on PostgreSQL the same names hold db/schema-pg.ts's tables (generated from the SQLite
// files, column for column, and checked by db/schema-parity.test.ts), and Drizzle builds each query in the dialect of
// the database it runs on. Chosen once, when this module is first imported (environment.ts databaseDialect).
import * as sqlite from "./schema-sqlite";
import * as postgres from "./schema-pg";
import { databaseDialect } from "../environment";

export type * from "./schema-sqlite";

export type Tables = typeof sqlite;

const onPostgres = databaseDialect() === "postgres";
// The one cast in the data layer: PostgreSQL's tables stand in for SQLite's under SQLite's types (same names, same
// columns, same value types: bigint in number mode, boolean for 0/1 flags).
const tables: Tables = onPostgres ? (postgres as unknown as Tables) : sqlite;

export const {
  merchants,
  merchantLogos,
  users,
  recoveryCodes,
  secondFactorFailures,
  accountTokens,
  knownDevices,
  memberships,
  apiKeys,
  apiSecrets,
  accessTokens,
  signingSecrets,
  paymentLinks,
  providerAccounts,
  payments,
  paymentEvents,
  bankNotices,
  providerNotices,
  leases,
  refunds,
  outbox,
  webhookEndpoints,
  deliveries,
  deliveryAttempts,
  invites,
  auditLog,
  mails,
  sessions,
  signInFailures,
  rateBudgets,
  settlements,
  settlementLines,
  sandboxBankCredits,
  sandboxBankRefunds,
  reconciliationExceptions,
  bankStatementLines,
  ledgerEntries,
  ledgerPostings,
  ledgerBalances,
  ledgerHeads,
} = tables;
