// A settlement's lines as Owo keeps them: each matched to Owo's payment (by the provider's transaction id of a credit
// Owo recorded, a refund Owo asked for, or the reference Owo issued the payment under), told apart from the merchant's
// other business on the same account, and the chargebacks among them booked on their payments.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { oneOf } from "../../db/functions";
import { bankNotices, payments, refunds, settlementLines } from "../../db/schema";
import { creditsOf, refundsOf, type SettlementSource } from "./sources";
import type { SettlementLineReading } from "../providers/settlement-reading";
import { isOwoReference } from "../providers/own-references";
import { bookSettledChargeback } from "../payments/chargebacks";

type LineKind = (typeof settlementLines.$inferInsert)["kind"];

/** Writes a settlement's lines, each with the payment it is about, and books the chargebacks among them. */
export async function writeLines(
  tx: Tx,
  source: SettlementSource,
  settlementId: string,
  lines: SettlementLineReading[],
  owners: Owners,
  now: number,
): Promise<void> {
  if (lines.length > 0)
    await tx.insert(settlementLines).values(
      lines.map((line, position) => {
        const paymentReference = ownerOf(owners, line);
        return {
          settlementId,
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
  await bookChargebacks(tx, source, settlementId, lines, owners, now);
}

/** Whether a reading's lines differ from those kept for the settlement (their transactions or money). */
export async function linesMoved(tx: Tx, settlementId: string, lines: SettlementLineReading[]): Promise<boolean> {
  const kept = await tx
    .select()
    .from(settlementLines)
    .where(eq(settlementLines.settlementId, settlementId))
    .orderBy(asc(settlementLines.position));
  const key = (l: Pick<SettlementLineReading, "providerTransactionId" | "grossKobo" | "feeKobo" | "netKobo">) =>
    `${l.providerTransactionId} ${l.grossKobo} ${l.feeKobo} ${l.netKobo}`;
  return kept.map(key).join("\n") !== lines.map(key).join("\n");
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

export type Owners = { byTransaction: Map<string, string>; byRefund: Map<string, string>; byReference: Map<string, string> };

/**
 * Owo's payment for each line: a credit line by the provider's transaction id of a credit Owo recorded on the same
 * account (the sandbox bank's notices, SeerBit's expected days); on a live provider's account, also a credit or refund
 * line by the reference the provider knows the transaction by, which is the reference Owo issued the payment under.
 */
export async function paymentsOf(tx: Tx, source: SettlementSource, lines: SettlementLineReading[]): Promise<Owners> {
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

export function ownerOf(owners: Owners, line: SettlementLineReading): string | null {
  if (!namesTransaction(line)) return null;
  const byTransaction = (line.kind === "payment" ? owners.byTransaction : line.kind === "refund" ? owners.byRefund : undefined)?.get(
    line.providerTransactionId,
  );
  return byTransaction ?? (line.providerReference ? owners.byReference.get(line.providerReference) : undefined) ?? null;
}

/** The credits (their notices' transaction ids) a settlement holds: its credit lines, and on a live account every
 * credit Owo recorded for the payments its credit lines matched by reference. */
export async function heldCredits(tx: Tx, source: SettlementSource, lines: SettlementLineReading[], owners: Owners): Promise<string[]> {
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
