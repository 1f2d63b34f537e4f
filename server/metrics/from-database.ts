// Gauges read from the database at each scrape, so every instance behind a load balancer reports the same queues
// (issue #27: "queue gauges come from the database"), plus this process's own connection pool.
import "server-only";
import { and, count, eq, isNull, lte, min, sum } from "drizzle-orm";
import { db, poolUse } from "../../db/client";
import { deliveries, ledgerBalances, mails, providerAccounts, reconciliationExceptions } from "../../db/schema";
import { clock } from "../clock";
import { databaseGauge } from "./series";

let registered = false;

export function registerDatabaseGauges(): void {
  if (registered) return;
  registered = true;
  databaseGauge("owo_callback_queue_depth", "Callback deliveries waiting to be sent (pending), due now or later", [], async (g) => {
    const [row] = await db().select({ n: count() }).from(deliveries).where(eq(deliveries.status, "pending"));
    g.set(row?.n ?? 0);
  });
  databaseGauge(
    "owo_callback_oldest_due_age_seconds",
    "How long the oldest due callback delivery has waited past its due time (0 when none is due): the worker falling behind",
    [],
    async (g) => {
      const now = clock.now();
      const [row] = await db()
        .select({ due: min(deliveries.nextAttemptAt) })
        .from(deliveries)
        .where(and(eq(deliveries.status, "pending"), lte(deliveries.nextAttemptAt, now)));
      g.set(row?.due === null || row?.due === undefined ? 0 : Math.max(0, (now - Number(row.due)) / 1000));
    },
  );
  databaseGauge("owo_mail_queue_depth", "Mail waiting to be sent (pending)", [], async (g) => {
    const [row] = await db().select({ n: count() }).from(mails).where(eq(mails.status, "pending"));
    g.set(row?.n ?? 0);
  });
  databaseGauge(
    "owo_provider_circuit_resting",
    "1 while a connected provider account rests after repeated failures (its circuit is open: routing skips it), else 0",
    ["provider", "provider_account"],
    async (g) => {
      const now = clock.now();
      const rows = await db()
        .select({ id: providerAccounts.id, provider: providerAccounts.provider, restingUntil: providerAccounts.restingUntil })
        .from(providerAccounts)
        .where(isNull(providerAccounts.disconnectedAt));
      for (const r of rows)
        g.set({ provider: r.provider, provider_account: r.id }, r.restingUntil !== null && r.restingUntil > now ? 1 : 0);
    },
  );
  databaseGauge(
    "owo_ledger_imbalance_kobo",
    "Sum of every ledger balance by mode, in kobo: every entry balances, so anything but 0 means the books are broken",
    ["mode"],
    async (g) => {
      const rows = await db()
        .select({ mode: ledgerBalances.mode, total: sum(ledgerBalances.balanceKobo) })
        .from(ledgerBalances)
        .groupBy(ledgerBalances.mode);
      g.set({ mode: "test" }, 0);
      g.set({ mode: "live" }, 0);
      // sum() comes back as a decimal string on both dialects; Number is exact for any sum a balanced ledger can hold.
      for (const r of rows) g.set({ mode: r.mode }, Number(r.total ?? 0));
    },
  );
  databaseGauge(
    "owo_reconciliation_exceptions_open",
    "Reconciliation exceptions waiting for a person (unresolved), by mode and kind",
    ["mode", "kind"],
    async (g) => {
      const rows = await db()
        .select({ mode: reconciliationExceptions.mode, kind: reconciliationExceptions.kind, n: count() })
        .from(reconciliationExceptions)
        .where(isNull(reconciliationExceptions.resolvedAt))
        .groupBy(reconciliationExceptions.mode, reconciliationExceptions.kind);
      for (const r of rows) g.set({ mode: r.mode, kind: r.kind }, r.n);
    },
  );
  databaseGauge(
    "owo_db_pool_connections",
    "This process's PostgreSQL pool: connections by state (max, open, idle, waiting requests); absent on SQLite",
    ["state"],
    async (g) => {
      const use = poolUse();
      if (!use) return;
      for (const [state, n] of Object.entries(use)) g.set({ state }, n);
    },
  );
}
