// CSV of the settlements list and of their lines, for the signed-in merchant and mode, streamed a page at a time.
import { asc, inArray } from "drizzle-orm";
import { db } from "../../db/client";
import { settlementLines } from "../../db/schema";
import { parseFields } from "../api-error";
import type { Caller } from "../auth/caller";
import { assertCan } from "../auth/permissions";
import { scopeOf, type Scope } from "../merchants/scope";
import { formatKobo } from "../money";
import { inLagosTime } from "../payments/calendar";
import { csvField } from "../payments/export";
import {
  countSettlements,
  listSettlements,
  settlementQuery,
  type SettlementFilters,
  type SettlementQuery,
  type SettlementView,
} from "./view";

export type CsvExport = { total: number; chunks: AsyncGenerator<string, void, undefined> };

const PAGE = 200;

const record = (fields: (string | number | null)[]) => fields.map((f) => csvField(f === null ? "" : String(f))).join(",") + "\r\n";

const SETTLEMENT_HEADER = record([
  "Settlement ID",
  "Provider",
  "Provider account",
  "Provider settlement ID",
  "Status",
  "Destination",
  "Currency",
  "Gross (NGN)",
  "Fees (NGN)",
  "Refunds (NGN)",
  "Adjustments (NGN)",
  "Net (NGN)",
  "Lines",
  "Settled (UTC)",
  "Bank reference",
  "Reconciliation",
  "Open exceptions",
  // Came later: last, so a sheet that reads the columns by position finds the others where they were.
  "Settled (Lagos time)",
]);

const LINE_HEADER = record([
  "Settlement ID",
  "Provider",
  "Settled (UTC)",
  "Kind",
  "Provider transaction ID",
  "Payment reference",
  "Provider reference",
  "Gross (NGN)",
  "Fee (NGN)",
  "Net (NGN)",
  "Matched",
  "Settled (Lagos time)",
]);

/** Every page of the filtered list, newest first, through the list's own cursor. */
async function* pages(scope: Scope, filters: SettlementQuery): AsyncGenerator<SettlementView[], void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await listSettlements(scope, { ...filters, cursor, limit: PAGE });
    if (page.settlements.length > 0) yield page.settlements;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

export async function exportSettlementsFor(caller: Caller, query: SettlementFilters): Promise<CsvExport> {
  assertCan(caller, "settlements.export");
  const scope = scopeOf(caller);
  const filters = parseFields(settlementQuery, query);
  const { settlements: total } = await countSettlements(scope, filters);
  async function* chunks(): AsyncGenerator<string, void, undefined> {
    yield SETTLEMENT_HEADER;
    for await (const page of pages(scope, filters))
      yield page
        .map((s) =>
          record([
            s.settlementId,
            s.provider,
            s.providerId,
            s.providerSettlementId,
            s.status,
            s.destination,
            s.currency,
            s.grossAmount,
            s.feeAmount,
            s.refundAmount,
            s.adjustmentAmount,
            s.netAmount,
            s.count,
            s.settledAt,
            s.bankReference,
            s.reconciliation.status,
            s.reconciliation.exceptions,
            inLagosTime(s.settledAt),
          ]),
        )
        .join("");
  }
  return { total, chunks: chunks() };
}

/** The lines of every settlement the filters hold, each with its settlement: one finance sheet for a period. */
export async function exportSettlementLinesFor(caller: Caller, query: SettlementFilters): Promise<CsvExport> {
  assertCan(caller, "settlements.export");
  const scope = scopeOf(caller);
  const filters = parseFields(settlementQuery, query);
  const { lines: total } = await countSettlements(scope, filters);
  async function* chunks(): AsyncGenerator<string, void, undefined> {
    yield LINE_HEADER;
    for await (const page of pages(scope, filters)) {
      // The page's settlements are the caller's: their lines are read by those ids alone.
      const lines = await db()
        .select()
        .from(settlementLines)
        .where(
          inArray(
            settlementLines.settlementId,
            page.map((s) => s.settlementId),
          ),
        )
        .orderBy(asc(settlementLines.settlementId), asc(settlementLines.position));
      const bySettlement = new Map<string, typeof lines>();
      for (const l of lines) bySettlement.set(l.settlementId, [...(bySettlement.get(l.settlementId) ?? []), l]);
      yield page
        .flatMap((s) =>
          (bySettlement.get(s.settlementId) ?? []).map((l) =>
            record([
              s.settlementId,
              s.provider,
              s.settledAt,
              l.kind,
              l.providerTransactionId,
              l.paymentReference,
              l.providerReference,
              formatKobo(l.grossKobo),
              formatKobo(l.feeKobo),
              formatKobo(l.netKobo),
              l.matched ? "yes" : "no",
              inLagosTime(s.settledAt),
            ]),
          ),
        )
        .join("");
    }
  }
  return { total, chunks: chunks() };
}
