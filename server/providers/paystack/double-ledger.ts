// The Paystack double's books: the transactions its Charge API opened, the customer's payments into them, the
// transfers it sent back itself, and the refunds made of them (their records: ./double-refund-records.ts). Written in
// Paystack's own shapes (the samples on the pages cited in ./connector.ts): `transactionView` is what verify answers
// and what charge.success carries.
import { randomInt } from "node:crypto";
import { nubanFor } from "../nuban";

export type DoubleTransaction = {
  id: number;
  reference: string;
  channel: "ussd" | "bank_transfer";
  /** What the merchant asked for, integer kobo. */
  amount: number;
  /** NGN as opened; a test may have the customer pay in another currency an account accepts (USD). */
  currency: string;
  email: string;
  metadata: unknown;
  /** reversed: a dispute was resolved against the merchant and Paystack took the money back (a chargeback). */
  status: "pending" | "success" | "failed" | "reversed";
  gatewayResponse: string | null;
  createdAt: Date;
  paidAt: Date | null;
  ussd?: { type: string; code: string };
  account?: { number: string; name: string; expiresAt: Date };
  /** Set when the charge lapsed unpaid before its time (the double's "expire now" control). */
  lapsedAt?: Date;
  /** Paystack's fee on it, and whether the customer bore it on top of `amount` (the integration's "who pays the charges"). */
  fees: number;
  customerBearsFees: boolean;
  /** An in-flight status Paystack reports for an unpaid charge (ongoing, processing, queued), set by a test. */
  inFlight?: "ongoing" | "processing" | "queued";
  /** Transfers Paystack returned to the sender itself (wrong amount, account expired). */
  reversals: { amount: number; reason: string; transactionId: string; at: Date }[];
};

/** The bank Paystack's test-mode temporary accounts sit at, as its bank_transfer sample shows it. */
export type DoubleRefund = {
  id: number;
  transaction: DoubleTransaction;
  amount: number;
  status: "pending" | "processing" | "processed" | "failed" | "needs-attention";
  /** The customer's account the merchant gave for a needs-attention refund. */
  customerAccount?: { accountNumber: string; bankId: number };
  customerNote: string;
  merchantNote: string;
  createdAt: Date;
  refundedAt: Date | null;
  refundReference: string | null;
  /** The settlement that deducted it (./double-settlements.ts), once one has. */
  settlement?: number;
  /** The dispute it paid back to the customer's bank (a chargeback), when it is one. */
  dispute?: number;
};

export const TEST_TRANSFER_BANK = { slug: "test-bank", name: "Test Bank", id: 24 } as const;
/**
 * Paystack's local fee (paystack.com/pricing): 1.5% + ₦100, the ₦100 waived under ₦2,500, capped at ₦2,000; kobo,
 * rounded half up. Where the customer bears it, Paystack adds it on top of what was asked.
 */
export function paystackFee(kobo: number): number {
  const fee = Math.floor((kobo * 15 + 500) / 1000) + (kobo >= 250_000 ? 10_000 : 0);
  return Math.min(200_000, fee);
}

/** Pay with Transfer accounts live 30 minutes (support.paystack.com/en/articles/2128642). */
export const ACCOUNT_LIFETIME_MS = 30 * 60 * 1000;

export class PaystackLedger {
  readonly transactions = new Map<string, DoubleTransaction>();
  readonly refunds = new Map<number, DoubleRefund>();
  private nextTransactionId = 4099260516;
  private nextRefundId = 3018284;
  private accountSerial = 126025750;

  constructor(readonly domain: "test" | "live") {}

  open(
    t: Omit<DoubleTransaction, "id" | "status" | "gatewayResponse" | "createdAt" | "paidAt" | "reversals" | "ussd" | "account" | "fees">,
    channel: { ussdType?: string; accountExpiresAt?: Date },
  ): DoubleTransaction {
    const tx: DoubleTransaction = {
      ...t,
      id: this.nextTransactionId++,
      status: "pending",
      gatewayResponse: null,
      createdAt: new Date(),
      paidAt: null,
      reversals: [],
      fees: paystackFee(t.amount),
    };
    if (channel.ussdType) tx.ussd = { type: channel.ussdType, code: `*${channel.ussdType}*33*4*${String(randomInt(100000, 1000000))}#` };
    if (channel.accountExpiresAt) {
      const serial = String(this.accountSerial++).padStart(9, "0");
      tx.account = { number: nubanFor("000", serial), name: "TEST-MANAGED-ACCOUNT", expiresAt: channel.accountExpiresAt };
    }
    this.transactions.set(tx.reference, tx);
    return tx;
  }

  find(referenceOrId: string): DoubleTransaction | undefined {
    return this.transactions.get(referenceOrId) ?? [...this.transactions.values()].find((t) => String(t.id) === referenceOrId);
  }

  /** Still refundable: what was paid, less refunds pending or processed (a failed refund frees its amount). */
  refundable(tx: DoubleTransaction): number {
    if (tx.status !== "success") return 0;
    let out = tx.amount;
    for (const r of this.refunds.values()) if (r.transaction === tx && r.status !== "failed") out -= r.amount;
    return out;
  }

  openRefund(tx: DoubleTransaction, amount: number, customerNote: string, merchantNote: string): DoubleRefund {
    const r: DoubleRefund = {
      id: this.nextRefundId++,
      transaction: tx,
      amount,
      status: "pending",
      customerNote,
      merchantNote,
      createdAt: new Date(),
      refundedAt: null,
      refundReference: null,
    };
    this.refunds.set(r.id, r);
    return r;
  }

  /** A pending charge that lapsed (a transfer account past its 30 minutes) is abandoned, as verify reports a charge nobody completed. */
  statusOf(tx: DoubleTransaction, now = Date.now()): string {
    if (tx.status === "pending" && (tx.lapsedAt || (tx.account && now > tx.account.expiresAt.getTime()))) return "abandoned";
    return tx.status === "pending" ? (tx.inFlight ?? "pending") : tx.status;
  }

  /** What the customer is charged: the amount asked, plus Paystack's fee where the customer bears it. */
  charged(tx: DoubleTransaction): number {
    return tx.amount + (tx.customerBearsFees ? tx.fees : 0);
  }

  transactionView(tx: DoubleTransaction, amount = this.charged(tx)): Record<string, unknown> {
    const paid = tx.paidAt?.toISOString() ?? null;
    const transfer = tx.channel === "bank_transfer";
    return {
      id: tx.id,
      domain: this.domain,
      status: this.statusOf(tx),
      reference: tx.reference,
      receipt_number: null,
      amount,
      message: null,
      gateway_response: tx.gatewayResponse,
      paid_at: paid,
      created_at: tx.createdAt.toISOString(),
      channel: tx.channel,
      currency: tx.currency,
      ip_address: "127.0.0.1",
      metadata: tx.metadata ?? "",
      log: null,
      fees: tx.paidAt ? tx.fees : null,
      fees_split: null,
      authorization: transfer
        ? {
            authorization_code: `AUTH_${tx.id}`,
            bin: "008XXX",
            last4: "X553",
            exp_month: "09",
            exp_year: "2030",
            channel: "bank_transfer",
            card_type: "transfer",
            bank: null,
            country_code: "NG",
            brand: "Managed Account",
            reusable: false,
            signature: null,
            account_name: null,
            sender_country: "NG",
            sender_bank: null,
            sender_bank_account_number: "XXXXXXX553",
            sender_name: "Double Customer",
            narration: tx.reference,
          }
        : {
            authorization_code: `AUTH_${tx.id}`,
            bin: "XXXXXX",
            last4: "XXXX",
            exp_month: "05",
            exp_year: "2030",
            channel: "ussd",
            card_type: "offline",
            bank: ussdBank(tx.ussd?.type),
            country_code: "NG",
            brand: "offline",
            reusable: false,
            signature: null,
            account_name: null,
          },
      customer: {
        id: 181873746,
        first_name: null,
        last_name: null,
        email: tx.email,
        customer_code: "CUS_1rkzaqsv4rrhqo6",
        phone: null,
        metadata: null,
        risk_action: "default",
        international_format_phone: null,
      },
      plan: null,
      split: {},
      order_id: null,
      paidAt: paid,
      createdAt: tx.createdAt.toISOString(),
      requested_amount: tx.amount,
      pos_transaction_data: null,
      source: { type: "api", source: "merchant_api", entry_point: "charge", identifier: null },
      fees_breakdown: null,
      connect: null,
      transaction_date: tx.createdAt.toISOString(),
      plan_object: {},
      subaccount: {},
    };
  }
}

function ussdBank(type: string | undefined): string | null {
  return (
    (
      { "737": "Guaranty Trust Bank", "919": "United Bank for Africa", "822": "Sterling Bank", "966": "Zenith Bank" } as Record<
        string,
        string
      >
    )[type ?? ""] ?? null
  );
}
