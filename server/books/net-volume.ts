// Net volume (API.md "Ledger and balances", as the overview shows it): what customers paid for sales, the fees the
// providers kept, the refunds paid back and the deductions made, per time bucket, read from the postings on those
// accounts, so the overview and the books can never disagree. Money that arrived after a payment closed is owed back
// (refund_due): it is not a sale, and returning it is not a refund of one, so it moves neither gross nor net; it is
// counted apart as `late`, and its fees, which the merchant does pay, are in `fees`. Gross is also split by the channel
// of the payment each posting belongs to, from the same rows, so the split always adds up to it.
import { and, eq, inArray } from "drizzle-orm";
import { db } from "../../db/client";
import { ledgerEntries, ledgerPostings, payments, type PaymentRow } from "../../db/schema";
import type { Scope } from "../merchants/scope";
import { postedIn, postedSpan, postingSides } from "./movements";

export type Channel = NonNullable<PaymentRow["paymentType"]>;

export type NetVolume = {
  grossKobo: number;
  /** Gross by the channel its payment was paid on. */
  grossByChannel: Record<Channel, number>;
  feesKobo: number;
  refundsKobo: number;
  adjustmentsKobo: number;
  lateKobo: number;
  /** Late money paid back to its customers in the span (refund_due's debits): not a refund of a sale either. */
  latePaidBackKobo: number;
  netKobo: number;
};

export const noMoney = (): NetVolume => ({
  grossKobo: 0,
  grossByChannel: { USSD: 0, TRANSFER: 0 },
  feesKobo: 0,
  refundsKobo: 0,
  adjustmentsKobo: 0,
  lateKobo: 0,
  latePaidBackKobo: 0,
  netKobo: 0,
});

const ACCOUNTS = ["sales", "fees", "refunds", "adjustments", "refund_due"];

/** Adds one account's movement (debits, credits) on one channel's payments in a bucket to its tally. */
function tally(into: NetVolume, account: string, channel: Channel | null, debits: number, credits: number): void {
  if (account === "sales") {
    into.grossKobo += credits - debits;
    if (channel) into.grossByChannel[channel] += credits - debits;
  } else if (account === "fees") into.feesKobo += debits - credits;
  else if (account === "refunds") into.refundsKobo += debits - credits;
  else if (account === "adjustments") into.adjustmentsKobo += debits - credits;
  else if (account === "refund_due") {
    into.lateKobo += credits;
    into.latePaidBackKobo += debits;
  }
  into.netKobo = into.grossKobo - into.feesKobo - into.refundsKobo - into.adjustmentsKobo;
}

/**
 * The money of `buckets` consecutive spans of `size` ms from `since`, by posting time: one grouped scan of the
 * merchant's entries in that range (the ledger_entries_posted index), each with its payment's channel (by primary key).
 */
export async function netVolume(scope: Scope, since: number, size: number, buckets: number): Promise<NetVolume[]> {
  const bucket = postedSpan(since, size);
  const rows = await db()
    .select({ bucket, account: ledgerPostings.account, channel: payments.paymentType, ...postingSides() })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .leftJoin(payments, eq(payments.id, ledgerEntries.paymentId))
    .where(and(postedIn(scope, { from: since, before: since + size * buckets }), inArray(ledgerPostings.account, ACCOUNTS)))
    .groupBy(bucket, ledgerPostings.account, payments.paymentType);
  const spans = Array.from({ length: buckets }, noMoney);
  for (const r of rows) {
    const span = spans[r.bucket];
    if (span) tally(span, r.account, r.channel, Number(r.debits), Number(r.credits));
  }
  return spans;
}

/** The sum of several spans' money. */
export function totalOf(spans: NetVolume[]): NetVolume {
  const total = noMoney();
  for (const s of spans) {
    total.grossKobo += s.grossKobo;
    total.grossByChannel.USSD += s.grossByChannel.USSD;
    total.grossByChannel.TRANSFER += s.grossByChannel.TRANSFER;
    total.feesKobo += s.feesKobo;
    total.refundsKobo += s.refundsKobo;
    total.adjustmentsKobo += s.adjustmentsKobo;
    total.lateKobo += s.lateKobo;
    total.latePaidBackKobo += s.latePaidBackKobo;
    total.netKobo += s.netKobo;
  }
  return total;
}
