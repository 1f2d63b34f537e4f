// The Flutterwave double's books: the charges its API opened (with their temporary accounts), the customer's
// payments into them, and refunds. Records are written in Flutterwave's own shapes (the samples of the pages cited in
// ./connector.ts): `transaction` is what verify answers and what charge.completed carries.
import { formatKobo } from "../../money";
import { nubanFor } from "../nuban";

export type Charge = {
  id: number;
  txRef: string;
  flwRef: string;
  type: "ussd" | "bank_transfer";
  /** What the merchant asked for, integer kobo. */
  amountKobo: number;
  paidKobo: number;
  /** The fee the customer paid on top, on an account that makes customers pay the fees (Books.feeBearer); else 0. */
  customerFeeKobo: number;
  status: "pending" | "successful" | "failed";
  customer: { email: string; name: string; phone: string | null };
  narration: string;
  createdAt: string;
  /** When the transfer arrived: a bank_transfer charge has no transaction record before (its charge answer holds only
   * the account), so its record's created_at is this. */
  arrivedAt?: string;
  paymentCode?: string;
  account?: { number: string; bank: string; expiresAt: number; used: boolean };
};

/** Flutterwave's words for a refund paid out: `completed`, `successful`, and per channel (for a transfer's refund)
 * `completed-bank-transfer` (its refund status table, https://developer.flutterwave.com/docs/collecting-payments/refunds). */
export const REFUND_PAID_WORDS = ["completed", "successful", "completed-bank-transfer"] as const;
export type RefundPaidWord = (typeof REFUND_PAID_WORDS)[number];

export type Refund = {
  id: number;
  charge: Charge;
  amountKobo: number;
  /** Paid out is `completed` in Flutterwave's refund pages and `successful` in others (./wire.ts readRefund). */
  status: "pending" | RefundPaidWord | "failed";
  createdAt: string;
  comments: string | null;
  /** The settlement that deducted it (./double-settlements.ts), once one has. */
  settlementId?: number;
};

/** The bank Flutterwave's dynamic accounts sit at (035, as Flutterwave's live accounts do) and its account id. */
const TRANSFER_BANK = { code: "035", name: "WEMA BANK" };
const ACCOUNT_ID = 20937;
/** Without `expires`, a dynamic account lives an hour. */
const DEFAULT_ACCOUNT_LIFETIME_S = 3600;

/** Naira as a JSON number, as Flutterwave writes amounts: read from the two-decimal text, never divided. */
export function nairaNumber(kobo: number): number {
  return Number(formatKobo(kobo));
}

/** Flutterwave's local fee (flutterwave.com/ng/pricing): 1.4%, capped at ₦2,000. */
export function flutterwaveFee(kobo: number): number {
  return Math.min(200_000, Math.round((kobo * 14) / 1000));
}

export class Books {
  readonly charges = new Map<string, Charge>();
  readonly refunds = new Map<number, Refund>();
  private nextId = 4517159;
  /**
   * Who pays Flutterwave's fee: the merchant (taken from what it receives), or the customer, on top of the amount
   * (the dashboard's setting that makes customers pay the transaction fees); then the record's charged_amount is the
   * amount and the fee, and app_fee that fee (API.md "Fees"; the settlement sample in ./double-settlements.ts's pages
   * charges 10190 with app_fee 190 and settles 10000).
   */
  feeBearer: "merchant" | "customer" = "merchant";

  open(input: Pick<Charge, "txRef" | "type" | "amountKobo" | "customer" | "narration">, expiresInS = DEFAULT_ACCOUNT_LIFETIME_S): Charge {
    const id = this.nextId++;
    const now = Date.now();
    const charge: Charge = {
      ...input,
      id,
      flwRef: `flwm3s4m0c${now}${id}`,
      paidKobo: 0,
      customerFeeKobo: 0,
      status: "pending",
      createdAt: new Date(now).toISOString(),
    };
    if (input.type === "ussd") charge.paymentCode = String(id);
    else {
      charge.flwRef = `MockFLWRef-${now}-${id}`;
      charge.account = {
        number: nubanFor(TRANSFER_BANK.code, String(id).padStart(9, "0").slice(-9)),
        bank: TRANSFER_BANK.name,
        expiresAt: now + expiresInS * 1000,
        used: false,
      };
    }
    this.charges.set(input.txRef, charge);
    return charge;
  }

  byId(id: string): Charge | undefined {
    for (const c of this.charges.values()) if (String(c.id) === id) return c;
    return undefined;
  }

  /** The customer pays `kobo` toward it (and the fee on top where customers pay it); null when it went through. A
   * dynamic account takes one transfer, before it expires. */
  pay(charge: Charge, kobo: number): string | null {
    if (charge.account) {
      if (charge.account.used || Date.now() > charge.account.expiresAt) return "account expired: the customer's bank returns the transfer";
      charge.account.used = true;
    }
    if (charge.status !== "pending") return `charge is ${charge.status}`;
    charge.paidKobo = kobo;
    charge.customerFeeKobo = this.feeBearer === "customer" ? flutterwaveFee(kobo) : 0;
    charge.status = "successful";
    if (charge.account) charge.arrivedAt = new Date().toISOString();
    return null;
  }

  decline(charge: Charge): string | null {
    if (charge.status !== "pending") return `charge is ${charge.status}`;
    charge.status = "failed";
    if (charge.account) charge.account.used = true;
    return null;
  }

  /** The transaction as verify answers it and charge.completed carries it (`amountKobo` differs only under a fault). */
  transaction(charge: Charge, amountKobo = charge.status === "successful" ? charge.paidKobo : charge.amountKobo) {
    return {
      id: charge.id,
      tx_ref: charge.txRef,
      flw_ref: charge.flwRef,
      device_fingerprint: "N/A",
      amount: nairaNumber(amountKobo),
      currency: "NGN",
      charged_amount: nairaNumber(amountKobo + charge.customerFeeKobo),
      app_fee: charge.status === "successful" ? nairaNumber(flutterwaveFee(amountKobo)) : 0,
      merchant_fee: 0,
      processor_response: charge.status === "successful" ? "success" : charge.status === "failed" ? "Declined" : "Transaction in progress",
      auth_model: charge.type === "ussd" ? "USSD" : "AUTH",
      ip: "127.0.0.1",
      narration: charge.narration,
      status: charge.status,
      payment_type: charge.type,
      created_at: charge.arrivedAt ?? charge.createdAt,
      account_id: ACCOUNT_ID,
      customer: {
        id: charge.id,
        name: charge.customer.name,
        phone_number: charge.customer.phone,
        email: charge.customer.email,
        created_at: charge.createdAt,
      },
    };
  }

  webhook(charge: Charge, amountKobo?: number) {
    return {
      event: "charge.completed",
      data: this.transaction(charge, amountKobo),
      "event.type": charge.type === "ussd" ? "USSD_TRANSACTION" : "BANK_TRANSFER_TRANSACTION",
    };
  }

  refundable(charge: Charge): number {
    let taken = 0;
    for (const r of this.refunds.values()) if (r.charge === charge && r.status !== "failed") taken += r.amountKobo;
    return charge.paidKobo - taken;
  }

  openRefund(charge: Charge, kobo: number, comments: string | null): Refund {
    const refund: Refund = {
      id: 75923 + this.refunds.size,
      charge,
      amountKobo: kobo,
      status: "pending",
      createdAt: new Date().toISOString(),
      comments,
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  /** A record of GET /v3/refunds (get all refunds): the transaction as transaction_id, the merchant's comments echoed. */
  refundListView(r: Refund) {
    const { id, account_id, flw_ref, amount_refunded, status, meta, created_at } = this.refundView(r);
    return {
      id,
      amount_refunded,
      status,
      flw_ref,
      destination: "payment_source",
      comments: r.comments,
      settlement_id: r.settlementId === undefined ? "NEW" : String(r.settlementId),
      meta,
      created_at,
      account_id,
      transaction_id: r.charge.id,
    };
  }

  refundView(r: Refund) {
    return {
      id: r.id,
      account_id: ACCOUNT_ID,
      tx_id: r.charge.id,
      flw_ref: `URF_${Date.parse(r.createdAt)}_${r.id}`,
      wallet_id: 74639,
      amount_refunded: nairaNumber(r.amountKobo),
      status: r.status,
      destination: "payment_source",
      meta: { source: "availablebalance" },
      created_at: r.createdAt,
    };
  }
}
