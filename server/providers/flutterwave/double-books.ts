// The Flutterwave test double's own records: charges (with their temporary accounts), the customer's plays on them,
// refunds, and the webhooks it sends (with the faults tests ask for). Shapes follow the docs' samples (./connector.ts).
import { formatKobo } from "../../payments/money";
import { nubanFor } from "../nuban";

export type Charge = {
  id: number;
  txRef: string;
  flwRef: string;
  type: "ussd" | "bank_transfer";
  amountKobo: number;
  paidKobo: number;
  status: "pending" | "successful" | "failed";
  customer: { email: string; name: string; phone: string | null };
  narration: string;
  createdAt: string;
  paymentCode?: string;
  account?: { number: string; bank: string; expiresAt: number; used: boolean };
};

export type Refund = { id: number; charge: Charge; amountKobo: number; status: "pending" | "completed" | "failed"; createdAt: string };

export type WebhookFault = "drop" | "duplicate" | "hold" | "wrong-amount";
export type RefundOutcome = "completed" | "failed" | "pending";
export type Delivery = { txRef: string; status: number | "dropped" | "held" | "unreachable"; body: string };

/** Flutterwave's account for the temporary accounts it opens (the bank its dynamic accounts live at). */
const TRANSFER_BANK = { code: "035", name: "WEMA BANK" };
const ACCOUNT_ID = 20937;

/** Naira as a JSON number, as Flutterwave writes amounts: built from the two-decimal text, not by dividing. */
export function nairaNumber(kobo: number): number {
  return Number(formatKobo(kobo));
}

export class Books {
  readonly charges = new Map<string, Charge>();
  readonly refunds = new Map<number, Refund>();
  readonly deliveries: Delivery[] = [];
  private held: { txRef: string; body: string }[] = [];
  private nextId = 4517159;
  webhookUrl: string | undefined;
  webhookFault: WebhookFault | null = null;
  refundOutcome: RefundOutcome = "completed";
  refundSettleMs = 200;

  constructor(private readonly secretHash: () => string) {}

  open(input: Omit<Charge, "id" | "flwRef" | "paidKobo" | "status" | "createdAt" | "paymentCode" | "account">, expiresInS?: number): Charge {
    const id = this.nextId++;
    const now = Date.now();
    const charge: Charge = { ...input, id, flwRef: "", paidKobo: 0, status: "pending", createdAt: new Date(now).toISOString() };
    if (input.type === "ussd") {
      charge.flwRef = `flwm3s4m0c${now}${id}`;
      charge.paymentCode = String(id);
    } else {
      charge.flwRef = `MockFLWRef-${now}-${id}`;
      const serial = String(100000000 + (id % 900000000)).slice(-9);
      charge.account = { number: nubanFor(TRANSFER_BANK.code, serial), bank: TRANSFER_BANK.name, expiresAt: now + (expiresInS ?? 3600) * 1000, used: false };
    }
    this.charges.set(input.txRef, charge);
    return charge;
  }

  byId(id: string): Charge | undefined {
    for (const c of this.charges.values()) if (String(c.id) === id) return c;
    return undefined;
  }

  /** The customer pays. A dynamic account takes one transfer before it expires (Flutterwave: it expires after use). */
  pay(charge: Charge, kobo: number): string | null {
    if (charge.account) {
      if (charge.account.used || Date.now() > charge.account.expiresAt) return "account expired: the customer's bank returns the transfer";
      charge.account.used = true;
    }
    if (charge.status !== "pending") return `charge is ${charge.status}`;
    charge.paidKobo = kobo;
    charge.status = "successful";
    void this.notify(charge);
    return null;
  }

  decline(charge: Charge): string | null {
    if (charge.status !== "pending") return `charge is ${charge.status}`;
    charge.status = "failed";
    if (charge.account) charge.account.used = true;
    void this.notify(charge);
    return null;
  }

  /** The transaction as verify answers it (`data`), and as the webhook carries it. */
  transaction(charge: Charge, amountKobo = charge.status === "successful" ? charge.paidKobo : charge.amountKobo) {
    return {
      id: charge.id,
      tx_ref: charge.txRef,
      flw_ref: charge.flwRef,
      device_fingerprint: "N/A",
      amount: nairaNumber(amountKobo),
      currency: "NGN",
      charged_amount: nairaNumber(amountKobo),
      app_fee: 0,
      merchant_fee: 0,
      processor_response: charge.status === "successful" ? "success" : charge.status === "failed" ? "Declined" : "Transaction in progress",
      auth_model: charge.type === "ussd" ? "USSD" : "AUTH",
      ip: "127.0.0.1",
      narration: charge.narration,
      status: charge.status,
      payment_type: charge.type,
      created_at: charge.createdAt,
      account_id: ACCOUNT_ID,
      customer: { id: charge.id, name: charge.customer.name, phone_number: charge.customer.phone, email: charge.customer.email, created_at: charge.createdAt },
    };
  }

  private async notify(charge: Charge): Promise<void> {
    const wrong = this.webhookFault === "wrong-amount";
    const body = JSON.stringify({
      event: "charge.completed",
      data: this.transaction(charge, wrong ? charge.paidKobo + 100000 : undefined),
      "event.type": charge.type === "ussd" ? "USSD_TRANSACTION" : "BANK_TRANSFER_TRANSACTION",
    });
    if (this.webhookFault === "drop") return void this.deliveries.push({ txRef: charge.txRef, status: "dropped", body });
    if (this.webhookFault === "hold") {
      this.held.push({ txRef: charge.txRef, body });
      return void this.deliveries.push({ txRef: charge.txRef, status: "held", body });
    }
    await this.send(charge.txRef, body);
    if (this.webhookFault === "duplicate") await this.send(charge.txRef, body);
  }

  /** Sends the held webhooks, in the order they were held or reversed (a later event arriving first). */
  async release(order: "held" | "reverse"): Promise<number> {
    const batch = order === "reverse" ? [...this.held].reverse() : [...this.held];
    this.held = [];
    for (const w of batch) await this.send(w.txRef, w.body);
    return batch.length;
  }

  /** Sends the last webhook of a charge again, byte for byte (Flutterwave's retries and a replay look the same). */
  async resend(txRef: string): Promise<boolean> {
    const last = this.deliveries.findLast((d) => d.txRef === txRef);
    if (!last) return false;
    await this.send(txRef, last.body);
    return true;
  }

  private async send(txRef: string, body: string): Promise<void> {
    if (!this.webhookUrl) return void this.deliveries.push({ txRef, status: "unreachable", body });
    try {
      const res = await fetch(this.webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "verif-hash": this.secretHash() },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      this.deliveries.push({ txRef, status: res.status, body });
    } catch {
      this.deliveries.push({ txRef, status: "unreachable", body });
    }
  }

  refundable(charge: Charge): number {
    let taken = 0;
    for (const r of this.refunds.values()) if (r.charge === charge && r.status !== "failed") taken += r.amountKobo;
    return charge.paidKobo - taken;
  }

  /** A refund starts pending and settles as `refundOutcome` says after `refundSettleMs` (the docs: 3-15 working days). */
  refund(charge: Charge, kobo: number): Refund {
    const refund: Refund = { id: 75923 + this.refunds.size, charge, amountKobo: kobo, status: "pending", createdAt: new Date().toISOString() };
    this.refunds.set(refund.id, refund);
    const outcome = this.refundOutcome;
    if (outcome !== "pending") setTimeout(() => (refund.status = outcome), this.refundSettleMs).unref();
    return refund;
  }

  refundData(r: Refund) {
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
