// Opening the books on a database that had payments before the ledger existed (API.md "Ledger and balances"): every
// payment with money and no entry yet gets its credit (what it was paid) and late credit (what arrived after it
// closed), the sandbox's fee on each credit notice it received, and each processed refund, so the books and the
// payments agree from the first start after the upgrade. Runs at start-up; a payment already booked is left alone, so a
// second run books nothing.
import { and, asc, eq, notExists, sql } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { environment } from "../../environment";
import { bankNotices, ledgerEntries, payments, refunds, type Mode } from "../../db/schema";
import { feeFor, SANDBOX_SCHEDULE } from "../fees";
import { bookCredit, bookRefund } from "./payment-entries";
import { ledgerQueue } from "./post";

const BATCH = 200;

type Due = { id: number; merchantId: string; mode: Mode };

/**
 * Books one payment inside one transaction; false when it was booked meanwhile. Its merchant's books are declared up
 * front (PostgreSQL: held from the start), so the transaction runs once instead of learning of them at its posting.
 */
function openPayment({ id, merchantId, mode }: Due): Promise<boolean> {
  return write((tx) => bookPayment(tx, id), { queues: [ledgerQueue(merchantId, mode)] });
}

async function bookPayment(tx: Tx, paymentId: number): Promise<boolean> {
  const [p] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), notExists(tx.select().from(ledgerEntries).where(eq(ledgerEntries.paymentId, paymentId)))));
  if (!p) return false;
  // Live providers reported no fee before the books existed; the sandbox bank charges its schedule on each notice,
  // those up to the amount paid on the credit, the rest on the late credit.
  const notices =
    p.providerAccountId === null
      ? await tx
          .select()
          .from(bankNotices)
          .where(and(eq(bankNotices.paymentId, p.id), eq(bankNotices.kind, "credit")))
          .orderBy(asc(bankNotices.receivedAt), asc(bankNotices.id))
      : [];
  let paidSoFar = 0;
  const fee = { paid: 0, late: 0 };
  for (const n of notices) {
    if (paidSoFar < p.amountPaidKobo) fee.paid += feeFor(SANDBOX_SCHEDULE, n.amountKobo);
    else fee.late += feeFor(SANDBOX_SCHEDULE, n.amountKobo);
    paidSoFar += n.amountKobo;
  }
  if (p.amountPaidKobo > 0) await bookCredit(tx, p, p.amountPaidKobo, fee.paid, false, p.paidAt ?? p.updatedAt);
  if (p.amountToRefundKobo > 0) await bookCredit(tx, p, p.amountToRefundKobo, fee.late, true, p.updatedAt);
  const processed = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, p.id), eq(refunds.status, "PROCESSED")))
    .orderBy(asc(refunds.settledAt));
  for (const r of processed) await bookRefund(tx, p, r, r.settledAt ?? r.updatedAt);
  await tx
    .update(payments)
    .set({ feeKobo: fee.paid + fee.late })
    .where(eq(payments.id, p.id));
  return true;
}

/** Every payment with money and no entry; returns how many were booked. */
export async function openBooks(): Promise<number> {
  // A bench server with posting off (books/post.ts) books nothing: every due payment would stay due, the loop never end.
  if (!environment("benchPosting")) return 0;
  let booked = 0;
  for (;;) {
    const due = await db()
      .select({ id: payments.id, merchantId: payments.merchantId, mode: payments.mode })
      .from(payments)
      .where(
        and(
          sql`${payments.amountPaidKobo} + ${payments.amountToRefundKobo} > 0`,
          notExists(db().select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.paymentId, payments.id))),
        ),
      )
      .orderBy(asc(payments.id))
      .limit(BATCH);
    if (due.length === 0) return booked;
    for (const payment of due) if (await openPayment(payment)) booked++;
  }
}
