// `fee_mismatch` against the agreed schedule (API.md "Fees", "Reconciliation"): where the merchant set the schedule it
// agreed with a provider account, each credit Owo records through that account is checked, in the credit's own
// transaction, against what the schedule charges. The sandbox bank's fee is its schedule by construction, so only live
// credits are checked; a schedule set later judges the credits after it, not those before.
import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { providerAccounts, type PaymentRow } from "../../db/schema";
import { scheduleOfRow } from "../books/fee-schedules";
import { feeFor } from "../fees";
import { creditEntries } from "../settlements/reconcile";
import { openExceptions } from "./exceptions";

/** What the provider's record held once this credit was booked: the money asked for, and the charge with a fee the customer bore on top. */
export type RecordedMoney = { transactionId: string; amountKobo: number; chargedKobo?: number };

/**
 * The merchant's fee the schedule expects for all the payment's credits: each credit charged on its own (as the
 * sandbox's are), less what the customer paid on top — the same `max(0, provider fee − (charged − asked))` API.md
 * takes the recorded fee from. Compared with every fee booked for the payment so far, this credit's included.
 */
export async function checkAgreedFee(tx: Tx, p: PaymentRow, record: RecordedMoney, now: number): Promise<void> {
  if (p.providerAccountId === null) return;
  const [account] = await tx.select().from(providerAccounts).where(eq(providerAccounts.id, p.providerAccountId));
  const schedule = account ? scheduleOfRow(account) : null;
  if (!schedule) return;
  const credits = await creditEntries(tx, p.id);
  const onTop = Math.max(0, (record.chargedKobo ?? record.amountKobo) - record.amountKobo);
  const expected = Math.max(0, credits.reduce((sum, c) => sum + feeFor(schedule, c.credited), 0) - onTop);
  const recorded = credits.reduce((sum, c) => sum + c.fee, 0);
  if (expected === recorded) return;
  await openExceptions(
    tx,
    p.merchantId,
    p.mode,
    [
      {
        kind: "fee_mismatch",
        // Not the transaction id alone: a settlement line's fee_mismatch about the same transaction is another finding.
        subject: `agreed:${record.transactionId}`,
        settlementId: null,
        paymentReference: p.paymentReference,
        expectedKobo: expected,
        actualKobo: recorded,
      },
    ],
    now,
  );
}
