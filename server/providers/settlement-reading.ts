// What a provider published about one payout to the merchant, in Owo's units (kobo, epoch ms), before Owo matches
// its lines to payments: connectors and the sandbox bank return these; server/settlements/ records and reconciles them.
export type SettlementStatus = "expected" | "pending" | "processing" | "withheld" | "paid" | "failed";

/** One settlement as read, or the provider's id of one that could not be read this time (and why). */
export type SettlementRead = { reading: SettlementReading } | { unreadable: string; err: unknown };

/** Reads one settlement, so that one that cannot be read is said so and the others are still read. */
export async function readOne(providerSettlementId: string, read: () => Promise<SettlementReading>): Promise<SettlementRead> {
  try {
    return { reading: await read() };
  } catch (err) {
    return { unreadable: providerSettlementId, err };
  }
}

/** A settlement Owo holds as `known` that the provider still lists as `listed`: read again only if it may have moved. */
export function readAgain(known: SettlementStatus | undefined, listed: SettlementStatus): boolean {
  return known === undefined || known !== listed || (listed !== "paid" && listed !== "failed");
}

export type SettlementLineReading = {
  /** A transaction or credit the provider paid out, a refund it deducted, or another deduction (chargeback, stamp duty). */
  kind: "payment" | "refund" | "adjustment";
  providerTransactionId: string;
  /** The reference the provider knows the transaction by (Owo's own under `owo_`, or the merchant's other sales). */
  providerReference: string | null;
  /** An adjustment the provider says was a chargeback: its providerTransactionId is the key the provider's notice of
   * it carries (connector.ts NoticeReading `deduction`), and it is booked on its payment once, whichever comes first. */
  reason?: "chargeback";
  /**
   * The provider's line gives what the customer was charged but not the amount asked (Flutterwave's settlement
   * transactions), so a fee the customer bore on top is still in its gross and fee: recording takes it off by the
   * credit Owo recorded from the provider's own record of the payment (server/settlements/customer-fees.ts).
   */
  chargedOnly?: true;
  /** Refund and adjustment lines are negative. */
  grossKobo: number;
  feeKobo: number;
  netKobo: number;
};

export type SettlementReading = {
  providerSettlementId: string;
  status: SettlementStatus;
  destination: "bank" | "wallet";
  currency: string;
  grossKobo: number;
  feeKobo: number;
  /** Refunds and adjustments deducted, as positive amounts. */
  refundKobo: number;
  adjustmentKobo: number;
  netKobo: number;
  settledAt: number | null;
  lines: SettlementLineReading[];
};
