// The sandbox bank's settlement: everything it holds for one merchant from its own books (credits less its fees, less
// the refunds it paid back), paid out at once, with the faults a real provider's settlement can carry (API.md
// "Settlements") so merchants and tests can rehearse every reconciliation exception. Runs inside the caller's
// transaction: the bank marks what it paid out in the same commit that Owo records the settlement.
import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../db/client";
import { sandboxBankCredits, sandboxBankRefunds } from "../../../db/schema";
import { invalidFields, zodFieldErrors } from "../../api-error";
import { parseAmount } from "../../money";
import type { SettlementLineReading, SettlementReading } from "../settlement-reading";
import { ownReference } from "../own-references";
import { sandboxFeeKobo } from "./books";

const amount = z.string().refine((a) => (parseAmount(a) ?? 0) > 0, 'must be naira above 0 with at most 2 decimals, e.g. "10.00"');

export const settlementFaults = z
  .object({
    omit: z.array(z.string().min(1)).max(1000).optional(),
    shortBy: amount.optional(),
    unknownLine: z.boolean().optional(),
    feeBy: amount.optional(),
    grossBy: amount.optional(),
    adjustment: amount.optional(),
  })
  .strict();
export type SettlementFaults = z.output<typeof settlementFaults>;

export function parseSettlementFaults(body: unknown): SettlementFaults {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalidFields([{ field: "body", message: "must be a JSON object ({} or faults)" }]);
  const parsed = settlementFaults.safeParse(body);
  if (!parsed.success) throw invalidFields(zodFieldErrors(parsed.error));
  return parsed.data;
}

const kobo = (a: string | undefined) => (a === undefined ? 0 : (parseAmount(a) ?? 0));
const hex = (n: number) => randomBytes(n).toString("hex");

/**
 * The settlement of every credit sent up to `upTo` and every refund paid back by then, paid out at `paidAt` (its
 * settledAt: the night's run pays the day before at the run, as a provider pays a day's sales the next day), or null
 * when its net would be 0 or less (the bank carries that forward and marks nothing).
 */
export async function sandboxSettle(
  tx: Tx,
  merchantId: string,
  { upTo, paidAt }: { upTo: number; paidAt: number },
  faults: SettlementFaults,
): Promise<SettlementReading | null> {
  const credits = await tx
    .select()
    .from(sandboxBankCredits)
    .where(
      and(eq(sandboxBankCredits.merchantId, merchantId), isNull(sandboxBankCredits.settlementId), lte(sandboxBankCredits.sentAt, upTo)),
    )
    .orderBy(asc(sandboxBankCredits.sentAt), asc(sandboxBankCredits.transactionId));
  const omit = new Set(faults.omit ?? []);
  const held = new Set(credits.map((c) => c.paymentReference));
  const stray = [...omit].find((ref) => !held.has(ref));
  if (stray !== undefined)
    throw invalidFields([{ field: "omit", message: `${stray} names no credit the sandbox bank holds unsettled for you` }]);
  const paidIn = credits.filter((c) => !omit.has(c.paymentReference));
  const refunds = await tx
    .select()
    .from(sandboxBankRefunds)
    .where(
      and(
        inArray(
          sandboxBankRefunds.reference,
          tx
            .select({ reference: sandboxBankCredits.reference })
            .from(sandboxBankCredits)
            .where(eq(sandboxBankCredits.merchantId, merchantId)),
        ),
        isNull(sandboxBankRefunds.settlementId),
        eq(sandboxBankRefunds.declined, false),
        lte(sandboxBankRefunds.paidAt, upTo),
      ),
    );
  const lines: SettlementLineReading[] = paidIn.map((c) => ({
    kind: "payment",
    providerTransactionId: c.transactionId,
    providerReference: c.reference,
    grossKobo: c.amountKobo,
    feeKobo: c.feeKobo,
    netKobo: c.amountKobo - c.feeKobo,
  }));
  const first = lines[0];
  // Each fault keeps its line self-consistent (gross − fee = net), so it shows as exactly the exception it rehearses.
  if (first) {
    first.feeKobo += kobo(faults.feeBy);
    first.grossKobo += kobo(faults.grossBy);
    first.netKobo = first.grossKobo - first.feeKobo;
  }
  if (faults.unknownLine) {
    const fee = sandboxFeeKobo(100_000);
    lines.push({
      kind: "payment",
      providerTransactionId: `sbx_${hex(10)}`,
      providerReference: ownReference("sandbox", hex(8)),
      grossKobo: 100_000,
      feeKobo: fee,
      netKobo: 100_000 - fee,
    });
  }
  for (const r of refunds)
    lines.push({
      kind: "refund",
      providerTransactionId: r.refundId,
      providerReference: r.reference,
      grossKobo: -r.amountKobo,
      feeKobo: 0,
      netKobo: -r.amountKobo,
    });
  const adjustmentKobo = kobo(faults.adjustment);
  if (adjustmentKobo > 0)
    lines.push({
      kind: "adjustment",
      providerTransactionId: `sbd_${hex(10)}`,
      providerReference: null,
      grossKobo: -adjustmentKobo,
      feeKobo: 0,
      netKobo: -adjustmentKobo,
    });
  const sales = lines.filter((l) => l.kind === "payment");
  const grossKobo = sales.reduce((s, l) => s + l.grossKobo, 0);
  const feeKobo = sales.reduce((s, l) => s + l.feeKobo, 0);
  const refundKobo = refunds.reduce((s, r) => s + r.amountKobo, 0);
  const netKobo = lines.reduce((s, l) => s + l.netKobo, 0) - kobo(faults.shortBy);
  if (netKobo <= 0) return null;
  const providerSettlementId = `sbs_${hex(10)}`;
  if (paidIn.length > 0)
    await tx
      .update(sandboxBankCredits)
      .set({ settlementId: providerSettlementId })
      .where(
        inArray(
          sandboxBankCredits.transactionId,
          paidIn.map((c) => c.transactionId),
        ),
      );
  if (refunds.length > 0)
    await tx
      .update(sandboxBankRefunds)
      .set({ settlementId: providerSettlementId })
      .where(
        inArray(
          sandboxBankRefunds.refundId,
          refunds.map((r) => r.refundId),
        ),
      );
  return {
    providerSettlementId,
    status: "paid",
    destination: "bank",
    currency: "NGN",
    grossKobo,
    feeKobo,
    refundKobo,
    adjustmentKobo,
    netKobo,
    settledAt: paidAt,
    lines,
  };
}
