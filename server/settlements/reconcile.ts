// Reconciling one settlement as it is recorded (API.md "Reconciliation"): each matched line's gross against the credit
// Owo recorded and its fee against the fee Owo booked for that credit; each line under Owo's prefix for no payment;
// the settlement's own arithmetic. Each finding is an exception recorded once (keyed by what it is about), and the
// settlement shows how many it has.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { bankNotices, ledgerEntries, ledgerPostings, payments, settlementLines, type SettlementRow } from "../../db/schema";
import { openExceptions, restateSettlements, type Finding } from "../reconciliation/exceptions";

export async function reconcileSettlement(tx: Tx, s: SettlementRow, now: number): Promise<void> {
  const lines = await tx.select().from(settlementLines).where(eq(settlementLines.settlementId, s.id));
  const findings: Omit<Finding, "settlementId">[] = [];
  const linesNet = lines.reduce((sum, l) => sum + l.netKobo, 0);
  const ownFigures = s.grossKobo - s.feeKobo - s.refundKobo - s.adjustmentKobo;
  if (ownFigures !== s.netKobo || linesNet !== s.netKobo)
    findings.push({
      kind: "net_mismatch",
      subject: `settlement:${s.id}`,
      paymentReference: null,
      expectedKobo: ownFigures !== s.netKobo ? ownFigures : linesNet,
      actualKobo: s.netKobo,
    });
  for (const l of lines) {
    if (l.kind === "unknown")
      findings.push({
        kind: "unknown_payment",
        subject: l.providerTransactionId,
        paymentReference: null,
        expectedKobo: null,
        actualKobo: l.grossKobo,
      });
    if (l.kind !== "payment" || !l.matched) continue;
    const recorded = await recordedCredit(tx, s, l.providerTransactionId, l.paymentReference);
    if (!recorded) continue;
    const ref = l.paymentReference;
    if (recorded.amountKobo !== l.grossKobo)
      findings.push({
        kind: "amount_mismatch",
        subject: l.providerTransactionId,
        paymentReference: ref,
        expectedKobo: recorded.amountKobo,
        actualKobo: l.grossKobo,
      });
    if (recorded.feeKobo !== null && recorded.feeKobo !== l.feeKobo)
      findings.push({
        kind: "fee_mismatch",
        subject: l.providerTransactionId,
        paymentReference: ref,
        expectedKobo: recorded.feeKobo,
        actualKobo: l.feeKobo,
      });
  }
  await openExceptions(
    tx,
    s.merchantId,
    s.mode,
    findings.map((f) => ({ ...f, settlementId: s.id })),
    now,
  );
  // What is open on it now: these findings, and any found before that no one has resolved.
  await restateSettlements(tx, [s.id], { reconciled: true });
}

/**
 * The credit Owo recorded for a provider transaction (its notice) and the fee Owo booked on it (its ledger entry). A
 * live provider's line names its own transaction, which Owo's notices do not key by: there the credit is everything
 * Owo recorded for the payment the line matched by reference on that account (one transaction, one payment).
 */
export async function recordedCredit(
  tx: Tx,
  s: Pick<SettlementRow, "providerId" | "merchantId" | "mode">,
  transactionId: string,
  paymentReference: string | null,
): Promise<{ amountKobo: number; feeKobo: number | null } | null> {
  const ofThisAccount = and(eq(bankNotices.provider, s.providerId), eq(payments.merchantId, s.merchantId), eq(payments.mode, s.mode));
  const [notice] = await tx
    .select({ amountKobo: bankNotices.amountKobo, paymentId: bankNotices.paymentId })
    .from(bankNotices)
    .innerJoin(payments, eq(payments.id, bankNotices.paymentId))
    .where(and(ofThisAccount, eq(bankNotices.providerTransactionId, transactionId)));
  if (notice) {
    const entry = (await creditEntries(tx, notice.paymentId)).find((e) => e.credited === notice.amountKobo);
    return { amountKobo: notice.amountKobo, feeKobo: entry ? entry.fee : null };
  }
  if (s.providerId === "sandbox" || paymentReference === null) return null;
  const notices = await tx
    .select({ amountKobo: bankNotices.amountKobo, paymentId: bankNotices.paymentId })
    .from(bankNotices)
    .innerJoin(payments, eq(payments.id, bankNotices.paymentId))
    .where(and(ofThisAccount, eq(bankNotices.kind, "credit"), eq(payments.paymentReference, paymentReference)));
  const [first] = notices;
  if (!first) return null;
  const entries = await creditEntries(tx, first.paymentId);
  return { amountKobo: notices.reduce((sum, n) => sum + n.amountKobo, 0), feeKobo: entries.reduce((sum, e) => sum + e.fee, 0) };
}

/** The payment's credit entries, each with the money it credited and its fee; the one for a notice's amount is that
 * notice's (two credits of one payment for the same amount carry the same fee). */
export async function creditEntries(tx: Tx, paymentId: number): Promise<{ credited: number; fee: number }[]> {
  const rows = await tx
    .select({
      entryId: ledgerEntries.id,
      fee: sql<number | string>`sum(case when ${ledgerPostings.account} = 'fees' then ${ledgerPostings.amountKobo} else 0 end)`,
      credited: sql<
        number | string
      >`sum(case when ${ledgerPostings.account} in ('sales', 'refund_due') then -${ledgerPostings.amountKobo} else 0 end)`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerPostings, eq(ledgerPostings.entryId, ledgerEntries.id))
    .where(and(eq(ledgerEntries.paymentId, paymentId), inArray(ledgerEntries.kind, ["credit", "late_credit"])))
    .groupBy(ledgerEntries.id);
  return rows.map((r) => ({ credited: Number(r.credited), fee: Number(r.fee) }));
}
