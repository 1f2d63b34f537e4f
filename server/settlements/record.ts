// Each provider settlement is recorded once, its lines matched to Owo's payments by provider account and the
// provider's transaction id (./lines.ts). A later reading of the same settlement moves its status and figures; until it
// is paid, lines the provider restated replace those kept, and it is reconciled again. Its money is booked in the same
// transaction as the status that moved it (./booking.ts).
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { settlementLines, settlements, type SettlementRow } from "../../db/schema";
import { newId } from "../identifiers";
import { settlementsOf, type SettlementSource } from "./sources";
import { bookSettlementStatus } from "./booking";
import { reconcileSettlement } from "./reconcile";
import { publishSettlementPaid } from "./events";
import { closeExceptions } from "../reconciliation/exceptions";
import { checkNotSettled } from "../reconciliation/not-settled";
import type { SettlementReading } from "../providers/settlement-reading";
import { lessCustomersShare } from "./customer-fees";
import { heldCredits, linesMoved, ownerOf, paymentsOf, writeLines, type Owners } from "./lines";

export type Recorded = { settlement: SettlementRow; created: boolean; statusChanged: boolean };

function figuresOf(reading: SettlementReading) {
  return {
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
}

export async function recordSettlement(tx: Tx, source: SettlementSource, read: SettlementReading, now: number): Promise<Recorded> {
  const providerId = source.providerAccountId ?? "sandbox";
  const [known] = await tx
    .select()
    .from(settlements)
    .where(and(settlementsOf(source), eq(settlements.providerSettlementId, read.providerSettlementId)));
  const books = { providerId, merchantId: source.merchantId, mode: source.mode };
  const normalised = (owners: Owners) => lessCustomersShare(tx, books, read, (line) => ownerOf(owners, line));
  if (known) {
    // A paid settlement's lines are its books: they stay. Its payments are looked up again only where a line could not
    // tell the fee its customer bore, so that a later reading's figures agree with the first.
    const unpaid = known.status !== "paid";
    const owners = unpaid || read.lines.some((l) => l.chargedOnly) ? await paymentsOf(tx, source, read.lines) : null;
    return restate(tx, source, known, owners ? await normalised(owners) : read, unpaid ? owners : null, now);
  }
  const owners = await paymentsOf(tx, source, read.lines);
  const reading = await normalised(owners);
  const [settlement] = await tx
    .insert(settlements)
    .values({
      id: newId("stl"),
      merchantId: source.merchantId,
      mode: source.mode,
      provider: source.provider,
      providerId,
      providerSettlementId: reading.providerSettlementId,
      ...figuresOf(reading),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!settlement) throw new Error("settlement insert returned nothing");
  await writeLines(tx, source, settlement.id, reading.lines, owners, now);
  await bookSettlementStatus(tx, settlement, null, now);
  const recorded = await checkLines(tx, source, settlement, reading, owners, now);
  if (recorded.status === "paid") await publishSettlementPaid(tx, recorded, now);
  return { settlement: recorded, created: true, statusChanged: true };
}

/**
 * A settlement read again: its status as the provider now gives it and, while it is not paid (`owners` given), its
 * figures and its lines too where the provider restated them (a pending settlement takes in a refund, say), checked
 * again so that what it books when paid and the findings it shows are the provider's latest.
 */
async function restate(
  tx: Tx,
  source: SettlementSource,
  known: SettlementRow,
  reading: SettlementReading,
  owners: Owners | null,
  now: number,
): Promise<Recorded> {
  const relined = owners !== null && (await linesMoved(tx, known.id, reading.lines));
  // A paid settlement's figures are booked: only its status moves (a payout the provider later reports failed).
  const moved = known.status === "paid" ? { status: reading.status } : figuresOf(reading);
  const [updated] = await tx
    .update(settlements)
    .set({ ...moved, updatedAt: now })
    .where(eq(settlements.id, known.id))
    .returning();
  if (!updated) throw new Error("settlement update returned nothing");
  if (relined) {
    await tx.delete(settlementLines).where(eq(settlementLines.settlementId, known.id));
    await writeLines(tx, source, known.id, reading.lines, owners, now);
  }
  await bookSettlementStatus(tx, updated, known.status, now);
  const recorded = relined ? await checkLines(tx, source, updated, reading, owners, now) : updated;
  if (recorded.status === "paid" && known.status !== "paid") await publishSettlementPaid(tx, recorded, now);
  return { settlement: recorded, created: false, statusChanged: known.status !== reading.status };
}

/** Reconciles a settlement's lines and settles the credits they hold; returns the settlement as reconciled. */
async function checkLines(
  tx: Tx,
  source: SettlementSource,
  settlement: SettlementRow,
  reading: SettlementReading,
  owners: Owners,
  now: number,
): Promise<SettlementRow> {
  await reconcileSettlement(tx, settlement, now);
  // Credits this settlement holds are settled after all; credits it should have held and does not are overdue.
  await closeExceptions(
    tx,
    source.merchantId,
    source.mode,
    "not_settled",
    await heldCredits(tx, source, reading.lines, owners),
    `Settled in ${settlement.id} (${reading.providerSettlementId} at the provider)`,
    now,
  );
  await checkNotSettled(tx, source, now);
  const [reconciled] = await tx.select().from(settlements).where(eq(settlements.id, settlement.id));
  return reconciled ?? settlement;
}
