// A provider's record of a payment applied to it (API.md "Live mode", "Requery"): the one path for money any provider
// reports, from a live notice the record confirmed, a requery, or the sandbox bank's notice read as a record
// (sandbox-notices.ts), through the state machine's moves.
import { eq } from "drizzle-orm";
import { write, type Tx } from "../../db/client";
import { lockedForUpdate } from "../../db/functions";
import { bankNotices, payments, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import type { ProviderPaymentState } from "../providers/connector";
import { checkAgreedFee } from "../reconciliation/agreed-fees";
import { reversalInTx } from "./chargebacks";
import { creditInTx, declineInTx, expireInTx, type MoveOptions } from "./lifecycle";

/** `applied`: the record moved the payment (a sandbox notice: was recorded). `refused`: why the record was not
 * applied at all (it names another currency than the payment's). */
export type ProviderOutcome = { payment: PaymentRow; applied: boolean; refused?: string };

/**
 * The one currency check every provider record passes, from a notice or a requery alike: naira is naira, and a
 * record in dollars is never credited as its number of naira.
 */
export function currencyDisagreement(paymentCurrency: string, ...recorded: string[]): string | null {
  const other = recorded.find((c) => c !== paymentCurrency);
  return other === undefined ? null : `currency: the payment is in ${paymentCurrency}, the provider's record in ${other}`;
}

/** What brought a record, as bank_notices keeps it: a notice's event id (or a requery's own id) at the provider or
 * account that told it. A provider's notice tells its record's total at its paid-at; the sandbox bank's tells one
 * credit, its sender and the bank's own time (API.md "Sandbox"), which are kept as told. */
export type RecordVia = {
  provider: string;
  transactionId: string;
  amountKobo?: number;
  senderName?: string | null;
  bankTime?: number | null;
};

const MOVES = { paid: "credit", failed: "decline", reversed: "reversal", expired: "expiry" } as const;

/**
 * The one entry point for money in the lifecycle: applies a provider's record to `found`, the payment its caller
 * locked in this transaction, exactly once per `via.transactionId`. Money is credited as the difference between the
 * record's total and what Owo already holds, and charged what the record's fee adds to what the payment was charged,
 * so a notice and a requery telling the same payment never count it twice. A record that says when (paidAt) is judged
 * alive or not at that time. The payment as moved, or null when the record told nothing new.
 */
export async function applyRecordInTx(
  tx: Tx,
  found: PaymentRow,
  record: ProviderPaymentState,
  via: RecordVia,
  now: number,
  opts: MoveOptions = {},
): Promise<PaymentRow | null> {
  const received = found.amountPaidKobo + found.amountToRefundKobo;
  const kind = record.state in MOVES ? MOVES[record.state as keyof typeof MOVES] : null;
  if (kind === null || (kind === "credit" && record.amountKobo <= received)) return null;
  if (kind === "reversal" && record.disputedKobo === undefined && record.chargebacks) {
    // Each chargeback the provider lists is booked under its own key, the one its notice and a settlement deducting it
    // carry: whichever tells Owo first books it, the others nothing more, in whatever order they come.
    let moved: PaymentRow | null = null;
    for (const c of record.chargebacks) {
      const one = { ...record, chargebacks: undefined, disputedKobo: c.amountKobo };
      moved = (await applyRecordInTx(tx, moved ?? found, one, { provider: via.provider, transactionId: c.deduction }, now, opts)) ?? moved;
    }
    return moved;
  }
  const at = record.paidAt ?? now;
  const [notice] = await tx
    .insert(bankNotices)
    .values({
      provider: via.provider,
      providerTransactionId: via.transactionId,
      paymentId: found.id,
      kind,
      amountKobo: via.amountKobo ?? record.amountKobo,
      senderName: via.senderName ?? null,
      bankTime: via.bankTime === undefined ? (record.paidAt ?? null) : via.bankTime,
      receivedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: bankNotices.id });
  if (!notice) return null;
  const detail = {
    provider: found.provider,
    transactionId: via.transactionId,
    ...(via.senderName === undefined ? {} : { senderName: via.senderName }),
  };
  if (kind === "credit") {
    // The record's fee covers all it holds; this credit carries what the books have not charged yet.
    const fee = Math.max(0, (record.feeKobo ?? 0) - found.feeKobo);
    return creditInTx(tx, await expireInTx(tx, found, at, opts), record.amountKobo - received, fee, at, detail, opts);
  }
  if (kind === "decline") {
    return declineInTx(tx, record.paidAt === undefined ? found : await expireInTx(tx, found, at, opts), now, detail, opts);
  }
  // The provider closed it unpaid on its own clock: Owo's lifetime ends with it.
  if (kind === "expiry") return expireInTx(tx, found, Math.max(now, found.expiresAt), opts, true);
  return reversalInTx(tx, found, record, notice.id, now, detail);
}

/**
 * Applies what a live provider's record says (applyRecordInTx), once it names the payment's currency, in one
 * transaction. Read committed, as a sandbox notice: the payment is locked first (every writer of its money locks it),
 * so the books are joined only at the posting and the merchant's other writers wait from there to commit.
 */
export async function applyProviderRecord(
  paymentId: number,
  record: ProviderPaymentState,
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
      const moved = await applyRecordInTx(tx, found, record, via, now);
      if (moved && record.state === "paid") {
        await checkAgreedFee(
          tx,
          moved,
          { transactionId: via.transactionId, amountKobo: record.amountKobo, chargedKobo: record.chargedKobo },
          now,
        );
      }
      return { payment: moved ?? found, applied: moved !== null && moved !== found };
    },
    { isolation: "read committed" },
  );
}
