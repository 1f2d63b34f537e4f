// Paystack's settlements in Owo's words (API.md "Settlements"): GET /settlement (total_processed, total_fees,
// deductions as one total, effective_amount: what reached the bank), each one's transactions from
// GET /settlement/{id}/transactions, and the refunds it deducted from GET /refund (each names its `settlement`);
// deductions beyond those refunds are one adjustment. A refund naming a `dispute` is a chargeback (./disputes.ts): an
// adjustment line keyed by the dispute, as its webhook is. Lines are normalised like credits: gross is the amount
// asked, fee the merchant's share of Paystack's fee (fees a customer bore are neither). Pages:
// https://paystack.com/docs/api/settlement/ and https://paystack.com/docs/api/refund/ (samples in
// github.com/PaystackOSS/doc-code-snippets src/api/settlements/).
import { z } from "zod";
import {
  readAgain,
  readOne,
  type SettlementLineReading,
  type SettlementRead,
  type SettlementReading,
  type SettlementStatus,
} from "../settlement-reading";
import { everyPage, instant, kobo, moneyOf, transaction, type Get } from "./wire";
import { disputeDeduction } from "./disputes";

const DAY_MS = 86_400_000;

const settlement = z.object({
  id: z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(String),
  status: z.string(),
  currency: z.string(),
  total_fees: kobo,
  total_processed: kobo,
  deductions: kobo.nullish(),
  effective_amount: kobo,
  settlement_date: instant.nullish(),
  createdAt: instant.nullish(),
});
const refund = z.object({
  id: z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(String),
  amount: kobo,
  status: z.string(),
  settlement: z
    .union([z.number().int(), z.string().regex(/^\d+$/)])
    .transform(String)
    .nullish(),
  transaction_reference: z.string().nullish(),
  /** The dispute this refund paid back to the customer's bank: a chargeback, not a refund the merchant asked for. */
  dispute: z
    .union([z.number().int(), z.string().regex(/^\d+$/)])
    .transform(String)
    .nullish(),
});
const STATUSES: Record<string, SettlementStatus> = { success: "paid", processing: "processing", pending: "pending", failed: "failed" };

/** The settlements Paystack made since `since` (epoch ms), each with its lines, but those `known` as paid or failed. */
export async function* readPaystackSettlements(
  get: Get,
  since: number,
  known: ReadonlyMap<string, SettlementStatus>,
): AsyncGenerator<SettlementRead> {
  const listed = await everyPage(get, "/settlement", `/settlement?from=${encodeURIComponent(new Date(since).toISOString())}`, settlement);
  let refunds: z.output<typeof refund>[] | null = null;
  for (const s of listed) {
    if (!readAgain(known.get(s.id), STATUSES[s.status] ?? "pending")) continue;
    yield await readOne(s.id, async () => {
      // A refund is deducted from a settlement made after it: those of a month before the window are enough. Read
      // once, and only when a settlement is read.
      refunds ??= await everyPage(
        get,
        "/refund",
        `/refund?from=${encodeURIComponent(new Date(since - 30 * DAY_MS).toISOString())}`,
        refund,
      );
      const sales = await everyPage(get, "/settlement/{id}/transactions", `/settlement/${s.id}/transactions`, transaction);
      return reading(
        s,
        sales,
        refunds.filter((r) => r.settlement === s.id),
      );
    });
  }
}

function reading(
  s: z.output<typeof settlement>,
  sales: z.output<typeof transaction>[],
  refunds: z.output<typeof refund>[],
): SettlementReading {
  const lines: SettlementLineReading[] = sales.map((t) => {
    const money = moneyOf(t);
    const fee = money.feeKobo ?? 0;
    return {
      kind: "payment",
      providerTransactionId: String(t.id),
      providerReference: t.reference,
      grossKobo: money.amountKobo,
      feeKobo: fee,
      netKobo: money.amountKobo - fee,
    };
  });
  // What customers bore on top of the amount asked is in Paystack's totals, fee and gross alike; it is neither here.
  const borne = sales.reduce((sum, t) => sum + t.amount - moneyOf(t).amountKobo, 0);
  const refundKobo = refunds.reduce((sum, r) => sum + (r.dispute ? 0 : r.amount), 0);
  for (const r of refunds)
    lines.push({
      ...(r.dispute
        ? { kind: "adjustment", reason: "chargeback", providerTransactionId: disputeDeduction(r.dispute) }
        : { kind: "refund", providerTransactionId: r.id }),
      providerReference: r.transaction_reference ?? null,
      grossKobo: -r.amount,
      feeKobo: 0,
      netKobo: -r.amount,
    });
  const adjustmentKobo = (s.deductions ?? 0) - refundKobo;
  const otherKobo = adjustmentKobo - refunds.reduce((sum, r) => sum + (r.dispute ? r.amount : 0), 0);
  if (otherKobo !== 0)
    lines.push({
      kind: "adjustment",
      providerTransactionId: `deductions:${s.id}`,
      providerReference: null,
      grossKobo: -otherKobo,
      feeKobo: 0,
      netKobo: -otherKobo,
    });
  return {
    providerSettlementId: s.id,
    status: STATUSES[s.status] ?? "pending",
    destination: "bank",
    currency: s.currency,
    grossKobo: s.total_processed - borne,
    feeKobo: s.total_fees - borne,
    refundKobo,
    adjustmentKobo,
    netKobo: s.effective_amount,
    settledAt: s.settlement_date ?? s.createdAt ?? null,
    lines,
  };
}
