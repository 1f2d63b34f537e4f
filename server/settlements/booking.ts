// A settlement's money on the books (API.md "Ledger and balances"): when a provider reports it paid, one `settlement`
// entry moves its net from what the provider held to the bank (or the provider wallet) and books the deductions not
// already booked on their payments (chargebacks, ../payments/chargebacks.ts); when a paid one is later
// reported failed, a `settlement_failed` entry puts it back exactly. Posted in the transaction that records the status.
import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { ledgerEntries, ledgerPostings, payments, settlementLines, settlements, type SettlementRow } from "../../db/schema";
import { providerAccount, type Account } from "../books/accounts";
import { postEntry } from "../books/post";
import { bookedDeductions } from "../payments/chargebacks";

/** Books the move from `before` (null: first read) to the settlement's status now; nothing when no money moved. */
export async function bookSettlementStatus(tx: Tx, s: SettlementRow, before: SettlementRow["status"] | null, at: number): Promise<void> {
  if (s.status === "paid" && before !== "paid") await bookPaid(tx, s, at);
  else if (s.status === "failed" && before === "paid") await bookFailed(tx, s, at);
  else return;
  await markPayments(tx, s);
}

/** Verify's `settlementId`: the latest paid settlement holding one of the payment's credits, for each payment it holds. */
async function markPayments(tx: Tx, s: SettlementRow): Promise<void> {
  const held = await tx
    .selectDistinct({ paymentReference: settlementLines.paymentReference })
    .from(settlementLines)
    .where(and(eq(settlementLines.settlementId, s.id), eq(settlementLines.kind, "payment"), isNotNull(settlementLines.paymentReference)));
  for (const { paymentReference } of held) {
    if (paymentReference === null) continue;
    const [latest] = await tx
      .select({ id: settlements.id })
      .from(settlements)
      .innerJoin(settlementLines, eq(settlementLines.settlementId, settlements.id))
      .where(
        and(
          eq(settlements.merchantId, s.merchantId),
          eq(settlements.mode, s.mode),
          eq(settlements.status, "paid"),
          eq(settlementLines.kind, "payment"),
          eq(settlementLines.paymentReference, paymentReference),
        ),
      )
      .orderBy(desc(settlements.settledAt), desc(settlements.createdAt))
      .limit(1);
    await tx
      .update(payments)
      .set({ settlementId: latest?.id ?? null })
      .where(and(eq(payments.merchantId, s.merchantId), eq(payments.mode, s.mode), inArray(payments.paymentReference, [paymentReference])));
  }
}

async function bookPaid(tx: Tx, s: SettlementRow, at: number): Promise<void> {
  const lines = await tx
    .select({ kind: settlementLines.kind, netKobo: settlementLines.netKobo, deduction: settlementLines.providerTransactionId })
    .from(settlementLines)
    .where(eq(settlementLines.settlementId, s.id));
  // E and U: what the net carried for the merchant's other sales and for no Owo payment; never Owo's to have held.
  const external = lines.filter((l) => l.kind === "external").reduce((sum, l) => sum + l.netKobo, 0);
  const suspense = lines.filter((l) => l.kind === "unknown").reduce((sum, l) => sum + l.netKobo, 0);
  // A deduction already booked on its payment (a chargeback its notice reported) is not booked again: only the rest.
  const deductions = lines.filter((l) => l.kind === "adjustment");
  const onPayments =
    s.providerId === "sandbox"
      ? new Map<string, number>()
      : await bookedDeductions(
          tx,
          s.providerId,
          deductions.map((l) => l.deduction),
        );
  const booked = deductions.reduce((sum, l) => sum + Math.min(-l.netKobo, onPayments.get(l.deduction) ?? 0), 0);
  const adjustments = s.adjustmentKobo - booked;
  const provider = providerAccount(s.providerId === "sandbox" ? null : s.providerId);
  const paidTo: Account = s.destination === "wallet" ? `provider_wallet:${s.providerId}` : "bank";
  await postEntry(tx, {
    merchantId: s.merchantId,
    mode: s.mode,
    kind: "settlement",
    settlementId: s.id,
    postings: [
      { account: paidTo, amountKobo: s.netKobo },
      { account: "adjustments", amountKobo: adjustments },
      { account: "external", amountKobo: -external },
      { account: "suspense", amountKobo: -suspense },
      { account: provider, amountKobo: -(s.netKobo + adjustments - external - suspense) },
    ],
    postedAt: at,
  });
}

/** The paid entry's postings with their signs turned: what the provider paid out comes back to what it holds. */
async function bookFailed(tx: Tx, s: SettlementRow, at: number): Promise<void> {
  const [paid] = await tx
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.settlementId, s.id), eq(ledgerEntries.kind, "settlement")));
  if (!paid) return;
  const postings = await tx
    .select({ account: ledgerPostings.account, amountKobo: ledgerPostings.amountKobo })
    .from(ledgerPostings)
    .where(eq(ledgerPostings.entryId, paid.id))
    .orderBy(ledgerPostings.line);
  await postEntry(tx, {
    merchantId: s.merchantId,
    mode: s.mode,
    kind: "settlement_failed",
    settlementId: s.id,
    postings: postings.map((p) => ({ account: p.account as Account, amountKobo: -p.amountKobo })),
    postedAt: at,
  });
}
