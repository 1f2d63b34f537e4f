// A provider with no settlement API (SeerBit's) settles all the same; Owo expects its payouts itself (API.md
// "Settlements"): one `expected` settlement per Lagos day gone by, from Owo's own credits on that account (each with the
// fee Owo booked on it) less the refunds processed through it, made paid when a bank statement line confirms it
// (../reconciliation/bank-statements.ts). Everything no settlement of the account holds yet, up to the end of the day,
// goes into that day; a day whose net would be ₦0.00 or less is not expected, and its money waits for the next.
import { and, asc, eq, isNotNull, like, lt, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { bankNotices, payments, refunds, settlements } from "../../db/schema";
import { DAY_MS, HOUR_MS, dayStartOf } from "../payments/calendar";
import type { SettlementLineReading } from "../providers/settlement-reading";
import { creditEntries } from "./reconcile";
import { recordSettlement } from "./record";
import { creditsOf, refundsOf, settlementsOf, type SettlementSource } from "./sources";

type Due = { at: number; line: SettlementLineReading };

/** "expected:2026-11-25": the day's own id, so each day is expected once. */
const dayId = (dayStart: number) => `expected:${new Date(dayStart + HOUR_MS).toISOString().slice(0, 10)}`;

/** Records the account's expected settlement for each day before `now` that has money in it; returns how many. */
export async function expectDays(tx: Tx, source: SettlementSource, now: number): Promise<number> {
  const providerId = source.providerAccountId;
  if (providerId === null) throw new Error("the sandbox bank settles by itself: no day is expected of it");
  const today = dayStartOf(now);
  const unheld = (id: SQL) =>
    sql`not exists (select 1 from settlement_lines l join settlements s on s.id = l.settlement_id
      where s.merchant_id = ${source.merchantId} and s.mode = ${source.mode} and s.provider_id = ${providerId}
      and l.provider_transaction_id = ${id})`;
  const credits = await tx
    .select({
      transactionId: bankNotices.providerTransactionId,
      amountKobo: bankNotices.amountKobo,
      receivedAt: bankNotices.receivedAt,
      paymentId: bankNotices.paymentId,
      issueReference: payments.issueReference,
    })
    .from(bankNotices)
    .innerJoin(payments, eq(payments.id, bankNotices.paymentId))
    .where(and(creditsOf(source), lt(bankNotices.receivedAt, today), unheld(sql`${bankNotices.providerTransactionId}`)))
    .orderBy(asc(bankNotices.receivedAt));
  const paidBack = await tx
    .select({ id: refunds.id, amountKobo: refunds.amountKobo, settledAt: refunds.settledAt, issueReference: payments.issueReference })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        refundsOf(source),
        eq(refunds.status, "PROCESSED"),
        isNotNull(refunds.settledAt),
        lt(refunds.settledAt, today),
        unheld(sql`${refunds.id}`),
      ),
    );
  const due: Due[] = [];
  for (const c of credits) {
    const fee = (await creditEntries(tx, c.paymentId)).find((e) => e.credited === c.amountKobo)?.fee ?? 0;
    due.push({
      at: c.receivedAt,
      line: {
        kind: "payment",
        providerTransactionId: c.transactionId,
        providerReference: c.issueReference,
        grossKobo: c.amountKobo,
        feeKobo: fee,
        netKobo: c.amountKobo - fee,
      },
    });
  }
  for (const r of paidBack)
    due.push({
      at: r.settledAt ?? 0,
      line: {
        kind: "refund",
        providerTransactionId: r.id,
        providerReference: r.issueReference,
        grossKobo: -r.amountKobo,
        feeKobo: 0,
        netKobo: -r.amountKobo,
      },
    });
  if (due.length === 0) return 0;
  const known = new Set(
    (
      await tx
        .select({ id: settlements.providerSettlementId })
        .from(settlements)
        .where(and(settlementsOf(source), like(settlements.providerSettlementId, "expected:%")))
    ).map((s) => s.id),
  );
  let expected = 0;
  let waiting = due;
  for (let day = dayStartOf(Math.min(...due.map((d) => d.at))); day < today; day += DAY_MS) {
    const lines = waiting.filter((d) => d.at < day + DAY_MS).map((d) => d.line);
    const sales = lines.filter((l) => l.kind === "payment");
    const netKobo = lines.reduce((sum, l) => sum + l.netKobo, 0);
    // A day already expected keeps its lines; anything found for it since waits for the next day, like a net ≤ 0.
    if (lines.length === 0 || netKobo <= 0 || known.has(dayId(day))) continue;
    await recordSettlement(
      tx,
      source,
      {
        providerSettlementId: dayId(day),
        status: "expected",
        destination: "bank",
        currency: "NGN",
        grossKobo: sales.reduce((sum, l) => sum + l.grossKobo, 0),
        feeKobo: sales.reduce((sum, l) => sum + l.feeKobo, 0),
        refundKobo: -lines.filter((l) => l.kind === "refund").reduce((sum, l) => sum + l.netKobo, 0),
        adjustmentKobo: 0,
        netKobo,
        settledAt: null,
        lines,
      },
      now,
    );
    expected++;
    waiting = waiting.filter((d) => d.at >= day + DAY_MS);
  }
  return expected;
}
