// The SeerBit double's own books: the payments opened through it, what the customer did, SeerBit's fee on each, and
// the refunds made, each drawn in SeerBit's own shapes (the answers its docs show; sources in ./connector.ts).
import { randomInt } from "node:crypto";

export type FeeBearer = "merchant" | "customer";
export type DoublePayment = {
  reference: string;
  channel: "USSD" | "TRANSFER";
  /** What the merchant asked, kobo. */
  amount: number;
  currency: string;
  fullName: string;
  email: string;
  mobileNumber: string;
  linkingReference: string;
  providerReference: string;
  dialCode: string | null;
  account: { number: string; name: string; bank: string } | null;
  /** SeerBit's code for it: S20 pending, 00 paid, S12 failed. */
  code: "S20" | "00" | "S12";
  paidAt: Date | null;
  refunded: number;
};

/** The double's fee (SeerBit agrees its rate with each merchant; none is published as the rule): 1.5%, capped at ₦2,000. */
export function seerbitFee(amount: number): number {
  return Math.min(200_000, Math.floor((amount * 15 + 500) / 1000));
}

/** kobo → SeerBit's JSON number of naira (10.15): exact, since the decimal text has at most two places. */
export function nairaNumber(kobo: number): number {
  return Number(`${Math.trunc(kobo / 100)}.${String(kobo % 100).padStart(2, "0")}`);
}

/** "2024-12-06 15:18:36.404709127": the query's processed time, Lagos local time as SeerBit writes it. */
function lagos(at: Date): string {
  const local = new Date(at.getTime() + 3_600_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 23)}000000`;
}

export class SeerBitBooks {
  readonly payments = new Map<string, DoublePayment>();

  constructor(
    readonly feeBearer: FeeBearer,
    readonly mode: "test" | "live",
  ) {}

  open(p: Omit<DoublePayment, "linkingReference" | "providerReference" | "code" | "paidAt" | "refunded">): DoublePayment {
    const made: DoublePayment = {
      ...p,
      linkingReference: `CSEERBIT${randomInt(10 ** 9, 10 ** 10 - 1)}${randomInt(10 ** 9, 10 ** 10 - 1)}`,
      providerReference: String(randomInt(1000, 9999)),
      code: "S20",
      paidAt: null,
      refunded: 0,
    };
    this.payments.set(p.reference, made);
    return made;
  }

  /** What the customer is charged: the amount asked, plus SeerBit's fee when the customer bears it. */
  charged(p: DoublePayment): number {
    return p.amount + (this.feeBearer === "customer" ? seerbitFee(p.amount) : 0);
  }

  /** GET /api/v3/payments/query/{ref} (doc.seerbit.com "Verify Payments"): code, amount charged, the breakdown. */
  queryView(p: DoublePayment): unknown {
    const fee = seerbitFee(p.amount);
    const message = p.code === "00" ? "Successful" : p.code === "S12" ? "Transaction Failed" : "Transaction is pending";
    return {
      status: "SUCCESS",
      data: {
        code: p.code,
        message,
        payments: {
          amount: nairaNumber(this.charged(p)),
          fee: (fee / 100).toFixed(2),
          mobilenumber: p.mobileNumber,
          paymentType: p.channel,
          gatewayMessage: message,
          gatewayCode: p.code,
          gatewayref: p.linkingReference,
          mode: this.mode,
          country: "NG",
          currency: p.currency,
          paymentReference: p.reference,
          ...(p.code === "00"
            ? {
                paymentBreakdown: { amount: nairaNumber(p.amount), fee: nairaNumber(fee), total: nairaNumber(this.charged(p)) },
                transactionProcessedTime: lagos(p.paidAt ?? new Date()),
              }
            : {}),
          reason: message,
        },
        customers: { customerName: p.fullName, customerMobile: p.mobileNumber, customerEmail: p.email },
      },
    };
  }

  /** A transaction event (doc.seerbit.com "Structure of the Event Notification", with Webhook V2's fields). */
  transactionNotice(p: DoublePayment, amount = this.charged(p)): unknown {
    return {
      notificationItems: [
        {
          notificationRequestItem: {
            eventType: "transaction",
            eventDate: lagos(new Date()).slice(0, 19),
            eventId: randomHex(),
            data: {
              reference: p.reference,
              linkingReference: p.linkingReference,
              amount: nairaNumber(amount),
              code: p.code,
              currency: p.currency,
              paymentType: p.channel,
              fullName: p.fullName,
              email: p.email,
              gatewayMessage: p.code === "00" ? "Successful" : "Transaction Failed",
            },
          },
        },
      ],
    };
  }

  /** The refund event, as the same page's "Refund Event" sample. */
  refundNotice(p: DoublePayment, amount: number, description: string): unknown {
    const now = lagos(new Date()).slice(0, 19);
    return {
      notificationItems: [
        {
          notificationRequestItem: {
            eventType: "refund",
            eventDate: now,
            eventId: randomHex(),
            data: {
              amount: (amount / 100).toFixed(2),
              createdAt: now,
              transactionRef: p.reference,
              description,
              type: amount === p.amount ? "FULL_REFUND" : "PARTIAL_REFUND",
              mode: this.mode.toUpperCase(),
              updatedAt: now,
              refundRef: randomHex().slice(0, 24),
              currency: p.currency,
              customer: { customerPhone: p.mobileNumber, customerEmail: p.email, customerName: p.fullName },
            },
          },
        },
      ],
    };
  }
}

function randomHex(): string {
  return Array.from({ length: 32 }, () => randomInt(16).toString(16)).join("");
}
