// Settlements as API.md shows them: the list (newest first, by cursor) and one settlement with its lines.
import { and, asc, desc, eq, gte, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { db } from "../../db/client";
import { settlementLines, settlements, type Mode, type SettlementRow } from "../../db/schema";
import { invalidFields, notFound, zodFieldErrors } from "../api-error";
import { DAY_MS, dayStartOfDate } from "../payments/calendar";
import { formatKobo } from "../payments/money";

const STATUSES = ["expected", "pending", "processing", "withheld", "paid", "failed"] as const;
const lagosDay = z.string().refine((d) => dayStartOfDate(d) !== null, "must be a day as YYYY-MM-DD");

export const settlementQuery = z
  .object({
    from: lagosDay.optional(),
    to: lagosDay.optional(),
    status: z.enum(STATUSES, { error: `must be one of ${STATUSES.join(", ")}` }).optional(),
    cursor: z
      .string()
      .regex(/^\d{1,15}_stl_[0-9a-z]{20}$/, "must be a nextCursor from a previous page")
      .optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  })
  .strict();
export type SettlementQuery = z.input<typeof settlementQuery>;

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

/** Newest first; `from`/`to` are Africa/Lagos days, inclusive, by when Owo first read the settlement. */
export async function listSettlements(merchantId: string, mode: Mode, query: unknown) {
  const parsed = settlementQuery.safeParse(query);
  if (!parsed.success) throw invalidFields(zodFieldErrors(parsed.error));
  const q = parsed.data;
  const limit = q.limit ?? 50;
  const where: (SQL | undefined)[] = [eq(settlements.merchantId, merchantId), eq(settlements.mode, mode)];
  if (q.from) where.push(gte(settlements.createdAt, dayStartOfDate(q.from) ?? 0));
  if (q.to) where.push(lt(settlements.createdAt, (dayStartOfDate(q.to) ?? 0) + DAY_MS));
  if (q.status) where.push(eq(settlements.status, q.status));
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

export async function getSettlement(merchantId: string, mode: Mode, settlementId: string) {
  const [s] = await db()
    .select()
    .from(settlements)
    .where(and(eq(settlements.id, settlementId), eq(settlements.merchantId, merchantId), eq(settlements.mode, mode)));
  if (!s) throw notFound("No such settlement");
  return { ...settlementView(s), lines: await settlementLinesOf(s.id) };
}

export async function settlementLinesOf(settlementId: string) {
  const lines = await db()
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
