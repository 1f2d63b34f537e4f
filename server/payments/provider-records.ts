// A live provider's record of a payment applied to it (API.md "Live mode", "Requery"): the one path for money a
// provider reports, from a notice the record confirmed or from a requery, through the state machine's moves.
import { eq } from "drizzle-orm";
import { write } from "../../db/client";
import { lockedForUpdate } from "../../db/functions";
import { bankNotices, payments, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import type { ProviderPaymentState } from "../providers/connector";
import { checkAgreedFee } from "../reconciliation/agreed-fees";
import { reversalInTx } from "./chargebacks";
import { creditInTx, declineInTx, expireInTx } from "./lifecycle";

/** A live provider's own record of a payment (its answer to a query, which every notice is checked against); a reversed
 * record confirming a resolved dispute also carries what the provider took back (Paystack's refund_amount). */
export type ProviderRecord = ProviderPaymentState & { disputedKobo?: number };

/** `refused`: why the record was not applied at all (it names another currency than the payment's). */
export type ProviderOutcome = { payment: PaymentRow; applied: boolean; refused?: string };

/**
 * The one currency check every provider record passes, from a notice or a requery alike: naira is naira, and a
 * record in dollars is never credited as its number of naira.
 */
export function currencyDisagreement(paymentCurrency: string, ...recorded: string[]): string | null {
  const other = recorded.find((c) => c !== paymentCurrency);
  return other === undefined ? null : `currency: the payment is in ${paymentCurrency}, the provider's record in ${other}`;
}

/**
 * Applies what a live provider's record says, exactly once per `transactionId` (the notice's event id, or a
 * requery's own id), in one transaction. Money is credited as the difference between the provider's total and
 * what Owo already holds, so a notice and a requery telling the same payment never count it twice.
 * Read committed, as a sandbox notice: the payment is locked first (every writer of its money locks it), so the
 * books are joined only at the posting and the merchant's other writers wait from there to commit.
 */
export async function applyProviderRecord(
  paymentId: number,
  record: ProviderRecord,
  via: { provider: string; transactionId: string },
  now = clock.now(),
): Promise<ProviderOutcome> {
  return write(
    async (tx) => {
      const [found] = await lockedForUpdate(tx.select().from(payments).where(eq(payments.id, paymentId)));
      if (!found) throw new ApiError("S404", "No such payment");
      const refused = currencyDisagreement(found.currency, record.currency);
      if (refused) return { payment: found, applied: false, refused };
      await tx.update(payments).set({ lastProviderAnswerAt: now }).where(eq(payments.id, paymentId));
      found.lastProviderAnswerAt = now;
      const received = found.amountPaidKobo + found.amountToRefundKobo;
      const kind =
        record.state === "paid"
          ? "credit"
          : record.state === "failed"
            ? "decline"
            : record.state === "reversed"
              ? "reversal"
              : record.state === "expired"
                ? "expiry"
                : null;
      if (kind === null || (kind === "credit" && record.amountKobo <= received)) return { payment: found, applied: false };
      const at = record.paidAt ?? now;
      const [notice] = await tx
        .insert(bankNotices)
        .values({
          provider: via.provider,
          providerTransactionId: via.transactionId,
          paymentId,
          kind,
          amountKobo: record.amountKobo,
          bankTime: record.paidAt ?? null,
          receivedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: bankNotices.id });
      if (!notice) return { payment: found, applied: false };
      const detail = { provider: found.provider, transactionId: via.transactionId };
      let payment: PaymentRow;
      if (kind === "credit") {
        // The record's fee covers all it holds; this credit carries what the books have not charged yet.
        const fee = Math.max(0, (record.feeKobo ?? 0) - found.feeKobo);
        payment = await creditInTx(tx, await expireInTx(tx, found, at, {}), record.amountKobo - received, fee, at, detail, {});
        await checkAgreedFee(
          tx,
          payment,
          { transactionId: via.transactionId, amountKobo: record.amountKobo, chargedKobo: record.chargedKobo },
          now,
        );
      } else if (kind === "decline") payment = await declineInTx(tx, found, now, detail, {});
      // The provider closed it unpaid on its own clock: Owo's lifetime ends with it.
      else if (kind === "expiry") payment = await expireInTx(tx, found, Math.max(now, found.expiresAt), {}, true);
      else payment = await reversalInTx(tx, found, record, notice.id, now, detail);
      return { payment, applied: payment !== found };
    },
    { isolation: "read committed" },
  );
}
