// Settlements as API.md shows them: the list (newest first, by cursor) and one settlement with its lines.
import { and, asc, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { db, type Db } from "../../db/client";
import { settlementLines, settlements, type SettlementRow } from "../../db/schema";
import { notFound } from "../api-error";
import type { Scope } from "../merchants/scope";
import { daysInOrder, lagosDay, pageLimit } from "../query-fields";
import { DAY_MS, dayStartOfDate } from "../payments/calendar";
import { formatKobo } from "../money";

export const SETTLEMENT_STATUSES = ["expected", "pending", "processing", "withheld", "paid", "failed"] as const;

export const settlementQuery = z
  .object({
    from: lagosDay.optional(),
    to: lagosDay.optional(),
    status: z.enum(SETTLEMENT_STATUSES, { error: `must be one of ${SETTLEMENT_STATUSES.join(", ")}` }).optional(),
    providerId: z
      .string({ error: "must be a providerId, e.g. prv_…" })
      .min(1, "must be a providerId, e.g. prv_…")
      .max(64, "must be a providerId, e.g. prv_…")
      .optional(),
    cursor: z
      .string({ error: "must be a nextCursor from a previous page" })
      .regex(/^\d{1,15}_stl_[0-9a-z]{20}$/, "must be a nextCursor from a previous page")
      .optional(),
    limit: pageLimit(200).optional(),
  })
  .refine(...daysInOrder);
export type SettlementQuery = z.output<typeof settlementQuery>;
/** The filters as a URL carries them, unchecked until settlementQuery parses them. */
export type SettlementFilters = Pick<z.input<typeof settlementQuery>, "from" | "to" | "status" | "providerId">;

/** The list's filters as a URL (the page's and the export's) carries them; the door parses them with settlementQuery. */
export function settlementFilters(params: URLSearchParams): SettlementFilters {
  const pick = (name: string) => params.get(name)?.trim() || undefined;
  // The cast is only a type: settlementQuery refuses any other status, naming the field.
  return { from: pick("from"), to: pick("to"), status: pick("status") as SettlementFilters["status"], providerId: pick("providerId") };
}

export function settlementView(s: SettlementRow) {
  return {
    settlementId: s.id,
    provider: s.provider,
    providerId: s.providerId,
    providerSettlementId: s.providerSettlementId,
    status: s.status,
    destination: s.destination,
    currency: s.currency,
    grossAmount: formatKobo(s.grossKobo),
    feeAmount: formatKobo(s.feeKobo),
    refundAmount: formatKobo(s.refundKobo),
    adjustmentAmount: formatKobo(s.adjustmentKobo),
    netAmount: formatKobo(s.netKobo),
    count: s.lineCount,
    settledAt: s.settledAt === null ? null : new Date(s.settledAt).toISOString(),
    bankReference: s.bankReference,
    reconciliation: { status: s.reconciliationStatus, exceptions: s.exceptionCount },
  };
}
export type SettlementView = ReturnType<typeof settlementView>;

/** The filters of a list, without its cursor: what a page of it and a count of it share. */
function filterWhere({ merchantId, mode }: Scope, q: SettlementQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [eq(settlements.merchantId, merchantId), eq(settlements.mode, mode)];
  if (q.from) where.push(gte(settlements.createdAt, dayStartOfDate(q.from) ?? 0));
  if (q.to) where.push(lt(settlements.createdAt, (dayStartOfDate(q.to) ?? 0) + DAY_MS));
  if (q.status) where.push(eq(settlements.status, q.status));
  if (q.providerId) where.push(eq(settlements.providerId, q.providerId));
  return and(...where);
}

/** Newest first; `from`/`to` are Africa/Lagos days, inclusive, by when Owo first read the settlement. */
export async function listSettlements(scope: Scope, q: SettlementQuery) {
  const limit = q.limit ?? 50;
  const where: (SQL | undefined)[] = [filterWhere(scope, q)];
  if (q.cursor) {
    const at = Number(q.cursor.slice(0, q.cursor.indexOf("_")));
    const id = q.cursor.slice(q.cursor.indexOf("_") + 1);
    where.push(or(lt(settlements.createdAt, at), and(eq(settlements.createdAt, at), lt(settlements.id, id))));
  }
  const rows = await db()
    .select()
    .from(settlements)
    .where(and(...where))
    .orderBy(desc(settlements.createdAt), desc(settlements.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    settlements: page.map(settlementView),
    nextCursor: rows.length > limit && last ? `${last.createdAt}_${last.id}` : null,
  };
}

/** How many settlements, and lines in them, a list's filters hold (an export's progress). */
export async function countSettlements(scope: Scope, filters: SettlementQuery) {
  const [row] = await db()
    .select({ settlements: sql<number | string>`count(*)`, lines: sql<number | string | null>`sum(${settlements.lineCount})` })
    .from(settlements)
    .where(filterWhere(scope, filters));
  return { settlements: Number(row?.settlements ?? 0), lines: Number(row?.lines ?? 0) };
}

/** The provider accounts the merchant has settlements from, in this mode: what a list can be narrowed to. */
export async function settlementSources({ merchantId, mode }: Scope) {
  return db()
    .selectDistinct({ providerId: settlements.providerId, provider: settlements.provider })
    .from(settlements)
    .where(and(eq(settlements.merchantId, merchantId), eq(settlements.mode, mode)))
    .orderBy(asc(settlements.provider), asc(settlements.providerId));
}

/** `q`: a snapshot's handle, where the caller reads more beside it (explained.ts). */
export async function getSettlement({ merchantId, mode }: Scope, settlementId: string, q: Db = db()) {
  const [s] = await q
    .select()
    .from(settlements)
    .where(and(eq(settlements.id, settlementId), eq(settlements.merchantId, merchantId), eq(settlements.mode, mode)));
  if (!s) throw notFound("No such settlement");
  return { ...settlementView(s), lines: await settlementLinesOf(s.id, q) };
}

export async function settlementLinesOf(settlementId: string, q: Db = db()) {
  const lines = await q
    .select()
    .from(settlementLines)
    .where(eq(settlementLines.settlementId, settlementId))
    .orderBy(asc(settlementLines.position));
  return lines.map((l) => ({
    kind: l.kind,
    providerTransactionId: l.providerTransactionId,
    paymentReference: l.paymentReference,
    providerReference: l.providerReference,
    grossAmount: formatKobo(l.grossKobo),
    feeAmount: formatKobo(l.feeKobo),
    netAmount: formatKobo(l.netKobo),
    matched: l.matched,
  }));
}
