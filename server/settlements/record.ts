// Each provider settlement is recorded once, its lines matched to Owo's payments by provider account and the
// provider's transaction id; a later reading of the same settlement only moves its status and figures. Its money is
// booked in the same transaction as the status that moved it (./booking.ts).
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { bankNotices, payments, settlementLines, settlements, type Mode, type SettlementRow } from "../../db/schema";
import { newId } from "../identifiers";
import { bookSettlementStatus } from "./booking";
import { reconcileSettlement } from "./reconcile";
import { publishSettlementPaid } from "./events";
import { closeExceptions } from "../reconciliation/exceptions";
import { checkNotSettled } from "../reconciliation/not-settled";
import type { SettlementLineReading, SettlementReading } from "../providers/settlement-reading";

/** Where a settlement comes from: the sandbox bank (test mode) or one of the merchant's provider accounts. */
export type SettlementSource = {
  merchantId: string;
  mode: Mode;
  provider: SettlementRow["provider"];
  /** `prv_…`; null for the sandbox bank. */
  providerAccountId: string | null;
};

type LineKind = (typeof settlementLines.$inferInsert)["kind"];

export type Recorded = { settlement: SettlementRow; created: boolean; statusChanged: boolean };

export async function recordSettlement(tx: Tx, source: SettlementSource, reading: SettlementReading, now: number): Promise<Recorded> {
  const providerId = source.providerAccountId ?? "sandbox";
  const figures = {
    status: reading.status,
    destination: reading.destination,
    currency: reading.currency,
    grossKobo: reading.grossKobo,
    feeKobo: reading.feeKobo,
    refundKobo: reading.refundKobo,
    adjustmentKobo: reading.adjustmentKobo,
    netKobo: reading.netKobo,
    lineCount: reading.lines.length,
    settledAt: reading.settledAt,
  };
  const [known] = await tx
    .select()
    .from(settlements)
    .where(
      and(
        eq(settlements.merchantId, source.merchantId),
        eq(settlements.mode, source.mode),
        eq(settlements.providerId, providerId),
        eq(settlements.providerSettlementId, reading.providerSettlementId),
      ),
    );
  if (known) {
    const [updated] = await tx
      .update(settlements)
      .set({ ...figures, updatedAt: now })
      .where(eq(settlements.id, known.id))
      .returning();
    if (!updated) throw new Error("settlement update returned nothing");
    await bookSettlementStatus(tx, updated, known.status, now);
    if (updated.status === "paid" && known.status !== "paid") await publishSettlementPaid(tx, updated, now);
    return { settlement: updated, created: false, statusChanged: known.status !== reading.status };
  }
  const [settlement] = await tx
    .insert(settlements)
    .values({
      id: newId("stl"),
      merchantId: source.merchantId,
      mode: source.mode,
      provider: source.provider,
      providerId,
      providerSettlementId: reading.providerSettlementId,
      ...figures,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!settlement) throw new Error("settlement insert returned nothing");
  const owners = await paymentsByTransaction(tx, source, reading.lines);
  if (reading.lines.length > 0)
    await tx.insert(settlementLines).values(
      reading.lines.map((line, position) => {
        const paymentReference = owners.get(line.providerTransactionId) ?? null;
        return {
          settlementId: settlement.id,
          position,
          kind: kindOf(source, line, paymentReference),
          providerTransactionId: line.providerTransactionId,
          paymentReference,
          providerReference: line.providerReference,
          grossKobo: line.grossKobo,
          feeKobo: line.feeKobo,
          netKobo: line.netKobo,
          matched: paymentReference !== null,
        };
      }),
    );
  await bookSettlementStatus(tx, settlement, null, now);
  await reconcileSettlement(tx, settlement, now);
  // Credits this settlement holds are settled after all; credits it should have held and does not are overdue.
  await closeExceptions(
    tx,
    source.merchantId,
    source.mode,
    "not_settled",
    reading.lines.filter((l) => l.kind === "payment").map((l) => l.providerTransactionId),
    `Settled in ${settlement.id} (${reading.providerSettlementId} at the provider)`,
    now,
  );
  await checkNotSettled(tx, source, now);
  const [reconciled] = await tx.select().from(settlements).where(eq(settlements.id, settlement.id));
  const recorded = reconciled ?? settlement;
  if (recorded.status === "paid") await publishSettlementPaid(tx, recorded, now);
  return { settlement: recorded, created: true, statusChanged: true };
}

/**
 * A payment line Owo holds no credit for is the merchant's other sale on the same account (`external`) unless it
 * carries Owo's own prefix, or comes from the sandbox bank, which serves Owo alone (`unknown`, booked to suspense).
 */
function kindOf(source: SettlementSource, line: SettlementLineReading, paymentReference: string | null): LineKind {
  if (line.kind !== "payment" || paymentReference !== null) return line.kind;
  return source.provider === "sandbox" || (line.providerReference ?? "").startsWith("owo_") ? "unknown" : "external";
}

/** The credit notices of the source's payments (join bank_notices to payments): what its settlements should hold. */
export function creditsOf(source: SettlementSource) {
  return and(
    eq(bankNotices.provider, source.provider),
    eq(bankNotices.kind, "credit"),
    eq(payments.merchantId, source.merchantId),
    eq(payments.mode, source.mode),
    source.providerAccountId === null ? isNull(payments.providerAccountId) : eq(payments.providerAccountId, source.providerAccountId),
  );
}

/** Owo's payment for each credit line, by the provider's transaction id on the same provider account and merchant. */
async function paymentsByTransaction(tx: Tx, source: SettlementSource, lines: SettlementLineReading[]): Promise<Map<string, string>> {
  const ids = lines.filter((l) => l.kind === "payment").map((l) => l.providerTransactionId);
  const found = new Map<string, string>();
  // Chunked: SQLite allows a few thousand bound parameters per statement.
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tx
      .select({ transactionId: bankNotices.providerTransactionId, paymentReference: payments.paymentReference })
      .from(bankNotices)
      .innerJoin(payments, eq(payments.id, bankNotices.paymentId))
      .where(and(creditsOf(source), inArray(bankNotices.providerTransactionId, ids.slice(i, i + 500))));
    for (const r of rows) found.set(r.transactionId, r.paymentReference);
  }
  return found;
}
