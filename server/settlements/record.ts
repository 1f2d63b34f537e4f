// Each provider settlement is recorded once, its lines matched to Owo's payments by provider account and the
// provider's transaction id; a later reading of the same settlement only moves its status and figures, and once it is
// paid only to failed. Its money is booked in the same transaction as the status that moved it (./booking.ts).
import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { oneOf } from "../../db/functions";
import { bankNotices, payments, refunds, settlementLines, settlements, type SettlementRow } from "../../db/schema";
import { newId } from "../identifiers";
import { creditsOf, refundsOf, settlementsOf, type SettlementSource } from "./sources";
import { bookSettlementStatus } from "./booking";
import { reconcileSettlement } from "./reconcile";
import { publishSettlementPaid } from "./events";
import { closeExceptions } from "../reconciliation/exceptions";
import { checkNotSettled } from "../reconciliation/not-settled";
import type { SettlementLineReading, SettlementReading } from "../providers/settlement-reading";
import { isOwoReference } from "../providers/own-references";
import { bookSettledChargeback } from "../payments/chargebacks";
import { lessCustomersShare } from "./customer-fees";

type LineKind = (typeof settlementLines.$inferInsert)["kind"];

export type Recorded = { settlement: SettlementRow; created: boolean; statusChanged: boolean };

/** What a settlement adds up: reconciling checks them against each other and against its lines. */
const FIGURES = ["grossKobo", "feeKobo", "refundKobo", "adjustmentKobo", "netKobo"] as const;

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
  const books = { providerId, merchantId: source.merchantId, mode: source.mode };
  const withoutCustomersShare = async (owners: Owners) => lessCustomersShare(tx, books, read, (line) => ownerOf(owners, line));
  const [known] = await tx
    .select()
    .from(settlements)
    .where(and(settlementsOf(source), eq(settlements.providerSettlementId, read.providerSettlementId)));
  if (known?.status === "paid") {
    // A paid settlement is booked: its figures stay, and the one move left to it is the provider reporting the payout
    // failed (any other, as a paid payout listed as pending again and then paid, would book it twice).
    if (read.status !== "failed") return { settlement: known, created: false, statusChanged: false };
    const [failed] = await tx.update(settlements).set({ status: "failed", updatedAt: now }).where(eq(settlements.id, known.id)).returning();
    if (!failed) throw new Error("settlement update returned nothing");
    await bookSettlementStatus(tx, failed, known.status, now);
    return { settlement: failed, created: false, statusChanged: true };
  }
  if (known) {
    // Its lines stay as first recorded; its payments are looked up again only where a line could not tell the fee its
    // customer bore, so that a later reading's figures agree with the first.
    const reading = read.lines.some((l) => l.chargedOnly) ? await withoutCustomersShare(await paymentsOf(tx, source, read.lines)) : read;
    const [updated] = await tx
      .update(settlements)
      .set({ ...figuresOf(reading), updatedAt: now })
      .where(eq(settlements.id, known.id))
      .returning();
    if (!updated) throw new Error("settlement update returned nothing");
    await bookSettlementStatus(tx, updated, known.status, now);
    // Figures the provider restated are checked again: a payout that no longer adds up opens a net_mismatch unless one
    // is already on record for it. A finding they no longer show stays for a person to resolve.
    const restated = FIGURES.some((f) => known[f] !== updated[f]);
    if (restated) await reconcileSettlement(tx, updated, now);
    const [current] = restated ? await tx.select().from(settlements).where(eq(settlements.id, known.id)) : [updated];
    if (!current) throw new Error("settlement read returned nothing");
    if (current.status === "paid") await publishSettlementPaid(tx, current, now);
    return { settlement: current, created: false, statusChanged: known.status !== reading.status };
  }
  const owners = await paymentsOf(tx, source, read.lines);
  const reading = await withoutCustomersShare(owners);
  const figures = figuresOf(reading);
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
  if (reading.lines.length > 0)
    await tx.insert(settlementLines).values(
      reading.lines.map((line, position) => {
        const paymentReference = ownerOf(owners, line);
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
  // A chargeback it deducted is the payment's, booked once however Owo hears of it first (../payments/chargebacks.ts).
  await bookChargebacks(tx, source, settlement.id, reading.lines, owners, now);
  await bookSettlementStatus(tx, settlement, null, now);
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
  const recorded = reconciled ?? settlement;
  if (recorded.status === "paid") await publishSettlementPaid(tx, recorded, now);
  return { settlement: recorded, created: true, statusChanged: true };
}

/**
 * A line Owo holds no payment for is the merchant's other business on the same account (`external`: a sale, or a
 * refund of one) unless it carries Owo's own prefix, or comes from the sandbox bank, which serves Owo alone: then a
 * sale is `unknown` (booked to suspense) and a refund stays Owo's.
 */
function kindOf(source: SettlementSource, line: SettlementLineReading, paymentReference: string | null): LineKind {
  if (line.kind === "adjustment" || paymentReference !== null) return line.kind;
  const owos = source.provider === "sandbox" || isOwoReference(source.provider, line.providerReference);
  if (line.kind === "refund") return owos ? "refund" : "external";
  return owos ? "unknown" : "external";
}

async function bookChargebacks(
  tx: Tx,
  source: SettlementSource,
  settlementId: string,
  lines: SettlementLineReading[],
  owners: Owners,
  now: number,
): Promise<void> {
  for (const line of lines) {
    const paymentReference = ownerOf(owners, line);
    if (line.reason !== "chargeback" || paymentReference === null || source.providerAccountId === null) continue;
    const { merchantId, mode, providerAccountId } = source;
    const deduction = line.providerTransactionId;
    await bookSettledChargeback(
      tx,
      { merchantId, mode, providerAccountId, paymentReference, deduction, amountKobo: -line.netKobo, settlementId },
      now,
    );
  }
}

type Owners = { byTransaction: Map<string, string>; byRefund: Map<string, string>; byReference: Map<string, string> };

/**
 * Owo's payment for each line: a credit line by the provider's transaction id of a credit Owo recorded on the same
 * account (the sandbox bank's notices, SeerBit's expected days); on a live provider's account, also a credit or refund
 * line by the reference the provider knows the transaction by, which is the reference Owo issued the payment under.
 */
async function paymentsOf(tx: Tx, source: SettlementSource, lines: SettlementLineReading[]): Promise<Owners> {
  const owners: Owners = { byTransaction: new Map(), byRefund: new Map(), byReference: new Map() };
  const ids = lines.filter((l) => l.kind === "payment").map((l) => l.providerTransactionId);
  // Chunked: SQLite allows a few thousand bound parameters per statement.
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tx
      .select({ transactionId: bankNotices.providerTransactionId, paymentReference: payments.paymentReference })
      .from(bankNotices)
      .innerJoin(payments, eq(payments.id, bankNotices.paymentId))
      .where(and(creditsOf(source), inArray(bankNotices.providerTransactionId, ids.slice(i, i + 500))));
    for (const r of rows) owners.byTransaction.set(r.transactionId, r.paymentReference);
  }
  // A refund line names the refund the provider paid back, which Owo recorded when it asked for it.
  // The ids go as one parameter (db/functions.ts oneOf), so no chunking is needed.
  const refundIds = lines.filter((l) => l.kind === "refund").map((l) => l.providerTransactionId);
  const refunded = refundIds.length
    ? await tx
        .select({ providerRefundId: refunds.providerRefundId, paymentReference: payments.paymentReference })
        .from(refunds)
        .innerJoin(payments, eq(payments.id, refunds.paymentId))
        .where(and(refundsOf(source), oneOf(refunds.providerRefundId, refundIds)))
    : [];
  for (const r of refunded) if (r.providerRefundId) owners.byRefund.set(r.providerRefundId, r.paymentReference);
  if (source.providerAccountId === null) return owners;
  const refs = [...new Set(lines.flatMap((l) => (namesTransaction(l) && l.providerReference ? [l.providerReference] : [])))];
  for (let i = 0; i < refs.length; i += 500) {
    const rows = await tx
      .select({ issueReference: payments.issueReference, paymentReference: payments.paymentReference })
      .from(payments)
      .where(
        and(
          eq(payments.merchantId, source.merchantId),
          eq(payments.mode, source.mode),
          eq(payments.providerAccountId, source.providerAccountId),
          inArray(payments.issueReference, refs.slice(i, i + 500)),
        ),
      );
    for (const r of rows) if (r.issueReference) owners.byReference.set(r.issueReference, r.paymentReference);
  }
  return owners;
}

/** Sales, refunds and chargebacks name the transaction they are about; other deductions (stamp duty, a reserve) are the settlement's. */
const namesTransaction = (line: SettlementLineReading) => line.kind !== "adjustment" || line.reason === "chargeback";

function ownerOf(owners: Owners, line: SettlementLineReading): string | null {
  if (!namesTransaction(line)) return null;
  const byTransaction = (line.kind === "payment" ? owners.byTransaction : line.kind === "refund" ? owners.byRefund : undefined)?.get(
    line.providerTransactionId,
  );
  return byTransaction ?? (line.providerReference ? owners.byReference.get(line.providerReference) : undefined) ?? null;
}

/** The credits (their notices' transaction ids) a settlement holds: its credit lines, and on a live account every
 * credit Owo recorded for the payments its credit lines matched by reference. */
async function heldCredits(tx: Tx, source: SettlementSource, lines: SettlementLineReading[], owners: Owners): Promise<string[]> {
  const sales = lines.filter((l) => l.kind === "payment");
  const held = sales.map((l) => l.providerTransactionId);
  const byReference = [...new Set(sales.flatMap((l) => owners.byReference.get(l.providerReference ?? "") ?? []))];
  for (let i = 0; i < byReference.length; i += 500) {
    const rows = await tx
      .select({ transactionId: bankNotices.providerTransactionId })
      .from(bankNotices)
      .innerJoin(payments, eq(payments.id, bankNotices.paymentId))
      .where(and(creditsOf(source), inArray(payments.paymentReference, byReference.slice(i, i + 500))));
    held.push(...rows.map((r) => r.transactionId));
  }
  return held;
}
