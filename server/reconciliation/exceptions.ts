// Reconciliation exceptions (API.md "Reconciliation"): each finding recorded once (keyed by what it is about), the
// merchant's endpoints told of each new one, and closed by Owo itself with a note when its cause goes away (a
// not_settled credit later settled, a bank_unmatched settlement later found on a statement).
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { db, type Db, type Tx } from "../../db/client";
import { declaredTables, reconciliationExceptions, settlements, type Mode } from "../../db/schema";
import { clock } from "../clock";
import { DAY_MS } from "../payments/calendar";
import { formatKobo } from "../money";
import { newId } from "../identifiers";
import { publishEvent } from "../settlements/events";
import type { Scope } from "../merchants/scope";
import { pageLimit, wholeNumber } from "../query-fields";

export type ExceptionRow = typeof reconciliationExceptions.$inferSelect;
export type ExceptionKind = ExceptionRow["kind"];
export const EXCEPTION_KINDS = declaredTables.reconciliationExceptions.kind.enumValues;

export type Finding = {
  kind: ExceptionKind;
  subject: string;
  settlementId: string | null;
  paymentReference: string | null;
  expectedKobo: number | null;
  actualKobo: number | null;
};

/** Records the findings not already recorded and tells the merchant's endpoints of each new one; returns the new ones. */
export async function openExceptions(tx: Tx, merchantId: string, mode: Mode, findings: Finding[], now: number): Promise<ExceptionRow[]> {
  if (findings.length === 0) return [];
  const opened = await tx
    .insert(reconciliationExceptions)
    .values(findings.map((f) => ({ id: newId("rex"), merchantId, mode, openedAt: now, ...f })))
    .onConflictDoNothing()
    .returning();
  for (const e of opened) await publishEvent(tx, { merchantId, mode, event: "reconciliation.exception", data: exceptionView(e, now) }, now);
  await restateSettlements(
    tx,
    opened.map((e) => e.settlementId),
  );
  return opened;
}

/**
 * Each settlement's `reconciliation` as its exceptions stand now: how many are open, and `exceptions` while any is.
 * Run in the transaction that opens or closes one, so a payout whose findings were all resolved reads as matched, not
 * as still holding them. One never reconciled stays `unchecked` unless `reconciled` (reconcile.ts has just checked it).
 */
export async function restateSettlements(tx: Tx, settlementIds: (string | null)[], { reconciled = false } = {}): Promise<void> {
  for (const id of new Set(settlementIds.filter((x): x is string => x !== null))) {
    const [row] = await tx
      .select({ open: sql<number | string>`count(*)` })
      .from(reconciliationExceptions)
      .where(and(eq(reconciliationExceptions.settlementId, id), isNull(reconciliationExceptions.resolvedAt)));
    const open = Number(row?.open ?? 0);
    const clear = reconciled
      ? "matched"
      : sql<"matched" | "unchecked">`case when ${settlements.reconciliationStatus} = 'unchecked' then 'unchecked' else 'matched' end`;
    await tx
      .update(settlements)
      .set({ exceptionCount: open, reconciliationStatus: open > 0 ? "exceptions" : clear })
      .where(eq(settlements.id, id));
  }
}

/** Owo closes the open exceptions of `kind` about `subjects` itself, saying why (their cause went away). */
export async function closeExceptions(
  tx: Tx,
  merchantId: string,
  mode: Mode,
  kind: ExceptionKind,
  subjects: string[],
  note: string,
  now: number,
): Promise<number> {
  if (subjects.length === 0) return 0;
  const closed = await tx
    .update(reconciliationExceptions)
    .set({ resolvedAt: now, note })
    .where(
      and(
        eq(reconciliationExceptions.merchantId, merchantId),
        eq(reconciliationExceptions.mode, mode),
        eq(reconciliationExceptions.kind, kind),
        inArray(reconciliationExceptions.subject, subjects),
        isNull(reconciliationExceptions.resolvedAt),
      ),
    )
    .returning({ id: reconciliationExceptions.id, settlementId: reconciliationExceptions.settlementId });
  await restateSettlements(
    tx,
    closed.map((e) => e.settlementId),
  );
  return closed.length;
}

const money = (k: number | null) => (k === null ? null : formatKobo(k));
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An exception as API.md shows it; `age` is the whole days it has been (or was) open, so a queue can sort by it. */
export function exceptionView(e: ExceptionRow, now = clock.now()) {
  return {
    exceptionId: e.id,
    kind: e.kind,
    settlementId: e.settlementId,
    paymentReference: e.paymentReference,
    expected: money(e.expectedKobo),
    actual: money(e.actualKobo),
    openedAt: new Date(e.openedAt).toISOString(),
    age: Math.max(0, Math.floor(((e.resolvedAt ?? now) - e.openedAt) / DAY_MS)),
    resolvedAt: iso(e.resolvedAt),
    note: e.note,
  };
}
export type ExceptionView = ReturnType<typeof exceptionView>;

export const exceptionQuery = z.object({
  status: z.enum(["open", "resolved", "all"], { error: "must be open, resolved or all" }).default("open"),
  kind: z.enum(EXCEPTION_KINDS, { error: `must be one of ${EXCEPTION_KINDS.join(", ")}` }).optional(),
  settlementId: z
    .string({ error: "must be a settlementId, e.g. stl_…" })
    .min(1, "must be a settlementId, e.g. stl_…")
    .max(64, "must be a settlementId, e.g. stl_…")
    .optional(),
  /** Only those opened at least this many whole days ago: the queue's "waiting a week or more". */
  minAge: wholeNumber(0, 3650, "must be a whole number of days from 0 to 3650").optional(),
  limit: pageLimit(500).default(200),
});
export type ExceptionQuery = z.output<typeof exceptionQuery>;

/**
 * What each open exception of a settlement is about: a line's provider transaction id for a line's finding (reconcile.ts),
 * `settlement:<id>` for one about the whole payout.
 */
export async function openFindingsOf(
  { merchantId, mode }: Scope,
  settlementId: string,
  q: Db = db(),
): Promise<{ subject: string; kind: ExceptionKind }[]> {
  return q
    .select({ subject: reconciliationExceptions.subject, kind: reconciliationExceptions.kind })
    .from(reconciliationExceptions)
    .where(
      and(
        eq(reconciliationExceptions.merchantId, merchantId),
        eq(reconciliationExceptions.mode, mode),
        eq(reconciliationExceptions.settlementId, settlementId),
        isNull(reconciliationExceptions.resolvedAt),
      ),
    )
    .orderBy(asc(reconciliationExceptions.openedAt), asc(reconciliationExceptions.id));
}

/**
 * The exceptions queue: open ones oldest first (the longest waiting on top), resolved ones newest first. `reader`: a
 * snapshot's handle, where the caller reads more beside it (settlements/explained.ts).
 */
export async function listExceptions({ merchantId, mode }: Scope, q: ExceptionQuery, reader: Db = db()): Promise<ExceptionView[]> {
  const where: (SQL | undefined)[] = [eq(reconciliationExceptions.merchantId, merchantId), eq(reconciliationExceptions.mode, mode)];
  if (q.status === "open") where.push(isNull(reconciliationExceptions.resolvedAt));
  if (q.status === "resolved") where.push(isNotNull(reconciliationExceptions.resolvedAt));
  if (q.kind) where.push(eq(reconciliationExceptions.kind, q.kind));
  if (q.settlementId) where.push(eq(reconciliationExceptions.settlementId, q.settlementId));
  const now = clock.now();
  // The same age the view shows: until now while open, until its resolution once resolved.
  if (q.minAge)
    where.push(
      sql`coalesce(${reconciliationExceptions.resolvedAt}, ${now}) - ${reconciliationExceptions.openedAt} >= ${q.minAge * DAY_MS}`,
    );
  const rows = await reader
    .select()
    .from(reconciliationExceptions)
    .where(and(...where))
    .orderBy(
      q.status === "open" ? asc(reconciliationExceptions.openedAt) : desc(reconciliationExceptions.openedAt),
      asc(reconciliationExceptions.id),
    )
    .limit(q.limit);
  return rows.map((e) => exceptionView(e, now));
}
