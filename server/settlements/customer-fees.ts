// A fee the customer bore on top of the amount asked is not the merchant's (API.md "Fees"), and settlement lines are
// normalised like credits: gross is the amount asked, fee the merchant's fee. Flutterwave's settlement transactions
// give only what was charged, so the share a customer bore cannot be read off the line. Owo recorded the amount asked
// from the provider's own record of the payment (its verify), so what the line charged above that credit, up to the
// line's fee, is the customer's: gross and fee both lose it and the net the provider paid stays as it is. A line that
// charged less than the credit, or more than the credit and its whole fee, is left as read, so reconciling it still
// finds the amount that does not agree.
import type { Tx } from "../../db/client";
import type { SettlementRow } from "../../db/schema";
import type { SettlementLineReading, SettlementReading } from "../providers/settlement-reading";
import { recordedCredit } from "./reconcile";

export async function lessCustomersShare(
  tx: Tx,
  books: Pick<SettlementRow, "providerId" | "merchantId" | "mode">,
  reading: SettlementReading,
  paymentOf: (line: SettlementLineReading) => string | null,
): Promise<SettlementReading> {
  if (!reading.lines.some((l) => l.chargedOnly)) return reading;
  let borne = 0;
  const lines: SettlementLineReading[] = [];
  for (const line of reading.lines) {
    const paymentReference = paymentOf(line);
    const credit =
      line.chargedOnly && line.kind === "payment" && paymentReference !== null
        ? await recordedCredit(tx, books, line.providerTransactionId, paymentReference)
        : null;
    const share = credit ? line.grossKobo - credit.amountKobo : 0;
    if (share <= 0 || share > line.feeKobo) {
      lines.push(line);
      continue;
    }
    borne += share;
    lines.push({ ...line, grossKobo: line.grossKobo - share, feeKobo: line.feeKobo - share });
  }
  return { ...reading, grossKobo: reading.grossKobo - borne, feeKobo: reading.feeKobo - borne, lines };
}
