// The period report (API.md "Reconciliation"): every figure is a movement on the `provider:*` accounts, by entry kind,
// so `opening + credits − fees − refunds − adjustments − paidOut + external + suspense = closing` holds by
// construction; and the exceptions open at any time in the period.
import { and, asc, eq, gte, isNull, like, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import { db } from "../../db/client";
import { ledgerEntries, ledgerHeads, ledgerPostings, reconciliationExceptions } from "../../db/schema";
import { invalidFields } from "../api-error";
import type { Scope } from "../merchants/scope";
import { daysInOrder, lagosDay } from "../query-fields";
import { clock } from "../clock";
import { DAY_MS, dayStartOfDate } from "../payments/calendar";
import { formatKobo } from "../money";
import { postedIn, postingSides } from "../books/movements";
import { exceptionView } from "./exceptions";

export const reportQuery = z.object({ from: lagosDay, to: lagosDay }).refine(...daysInOrder);
export type ReportQuery = z.output<typeof reportQuery>;

type Movement = { kind: string; account: string; debits: number; credits: number };

async function movements(scope: Scope, start: number, end: number): Promise<Movement[]> {
  const rows = await db()
    .select({ kind: ledgerEntries.kind, account: ledgerPostings.account, ...postingSides() })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(postedIn(scope, { from: start, before: end }))
    .groupBy(ledgerEntries.kind, ledgerPostings.account);
  return rows.map((r) => ({ kind: r.kind, account: r.account, debits: Number(r.debits), credits: Number(r.credits) }));
}

/** What the providers held unsettled for the merchant just before `at`. */
async function heldBefore(scope: Scope, at: number): Promise<number> {
  const [row] = await db()
    .select({ sum: sql<number | string | null>`sum(${ledgerPostings.amountKobo})` })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(and(postedIn(scope, { before: at }), like(ledgerPostings.account, "provider:%")));
  return Number(row?.sum ?? 0);
}

export async function reconciliationReport(scope: Scope, query: ReportQuery) {
  const { merchantId, mode } = scope;
  const start = dayStartOfDate(query.from) ?? 0;
  const end = Math.min((dayStartOfDate(query.to) ?? 0) + DAY_MS, clock.now() + 1);
  // The schema refused a backwards range; an empty one is left only when `from` is a day still to come.
  if (end <= start) throw invalidFields([{ field: "from", message: "must not be a day still to come" }]);
  const moved = await movements(scope, start, end);
  const sum = (pick: (m: Movement) => boolean, side: (m: Movement) => number) => moved.filter(pick).reduce((s, m) => s + side(m), 0);
  const onProvider = (m: Movement) => m.account.startsWith("provider:");
  const payout = (m: Movement) => m.kind === "settlement" || m.kind === "settlement_failed";
  const credit = (m: Movement) => m.kind === "credit" || m.kind === "late_credit";
  const credits = sum(
    (m) => credit(m) && onProvider(m),
    (m) => m.debits,
  );
  const fees = sum(
    (m) => credit(m) && onProvider(m),
    (m) => m.credits,
  );
  const refunds = sum(
    (m) => m.kind === "refund" && onProvider(m),
    (m) => m.credits - m.debits,
  );
  const paidOut = sum(
    (m) => payout(m) && (m.account === "bank" || m.account.startsWith("provider_wallet:")),
    (m) => m.debits - m.credits,
  );
  const external = sum(
    (m) => payout(m) && m.account === "external",
    (m) => m.credits - m.debits,
  );
  const suspense = sum(
    (m) => payout(m) && m.account === "suspense",
    (m) => m.credits - m.debits,
  );
  const opening = await heldBefore(scope, start);
  const closing = await heldBefore(scope, end);
  // Deductions inside settlements, adjustments against a provider, and reversals: whatever else moved the providers'
  // balances, so the identity holds whatever kinds a future entry brings.
  const adjustments = opening + credits - fees - refunds - paidOut + external + suspense - closing;
  const [head] = await db()
    .select({ sequence: ledgerHeads.sequence, hash: ledgerHeads.hash })
    .from(ledgerHeads)
    .where(and(eq(ledgerHeads.merchantId, merchantId), eq(ledgerHeads.mode, mode)));
  const exceptions = await db()
    .select()
    .from(reconciliationExceptions)
    .where(
      and(
        eq(reconciliationExceptions.merchantId, merchantId),
        eq(reconciliationExceptions.mode, mode),
        lt(reconciliationExceptions.openedAt, end),
        or(isNull(reconciliationExceptions.resolvedAt), gte(reconciliationExceptions.resolvedAt, start)),
      ),
    )
    .orderBy(asc(reconciliationExceptions.openedAt), asc(reconciliationExceptions.id));
  return {
    from: query.from,
    to: query.to,
    opening: formatKobo(opening),
    credits: formatKobo(credits),
    fees: formatKobo(fees),
    refunds: formatKobo(refunds),
    adjustments: formatKobo(adjustments),
    paidOut: formatKobo(paidOut),
    external: formatKobo(external),
    suspense: formatKobo(suspense),
    closing: formatKobo(closing),
    ledgerHead: head ? { sequence: head.sequence, hash: head.hash } : null,
    exceptions: exceptions.map((e) => exceptionView(e)),
  };
}
export type ReconciliationReport = Awaited<ReturnType<typeof reconciliationReport>>;
