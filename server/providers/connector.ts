// The seam between Owo's core and a bank-side provider (DESIGN.md "The bank side"): one connector per provider
// folder (sandbox/, paystack/, flutterwave/, seerbit/). The registry routes payments to connectors; the payments
// core never names a provider. Every call here is network I/O: none may run inside a database transaction.
import type { Bank } from "./banks";
import type { SettlementRead, SettlementStatus } from "./settlement-reading";

export type ProviderName = "sandbox" | "paystack" | "flutterwave" | "seerbit";
export type Channel = "USSD" | "TRANSFER";

/** One merchant's connected account at a provider, credentials already decrypted (never logged, never shown). */
export type ProviderAccount = {
  id: string;
  provider: ProviderName;
  /** The provider's API root, e.g. https://api.paystack.co; a test double's address in tests. */
  baseUrl: string;
  /** Paystack: secretKey. Flutterwave: secretKey, secretHash. SeerBit: publicKey, secretKey. */
  credentials: Record<string, string>;
  /** The merchant marked this account as approved by its provider for refunds (see Connector.refundsNeedApproval). */
  refundsEnabled?: boolean;
};

export type IssueRequest = {
  channel: Channel;
  /** A fresh reference of Owo's for this attempt (a retry at another provider gets another one). */
  reference: string;
  amountKobo: number;
  currency: "NGN";
  /** USSD only: the customer's bank, from banks.json. */
  bank?: Bank;
  customer: { fullName: string; email: string; mobileNumber: string };
  merchantName: string;
  /** Owo's own lifetime for the payment (epoch ms); the provider may answer an earlier one. */
  expiresAt: number;
  /** This provider account's notice URL. SeerBit takes it with each payment (as callbackUrl); Paystack and
   * Flutterwave take it once, on their own dashboards, so their connectors ignore it. */
  noticeUrl?: string;
};

export type Issued =
  | { channel: "USSD"; providerReference: string; dialCode: string; expiresAt?: number }
  | { channel: "TRANSFER"; providerReference: string; accountNumber: string; bankName: string; accountName: string; expiresAt?: number };

/** How a payment stands at the provider, in the provider's own record. */
export type ProviderPaymentState = {
  /** paid: the provider holds money for it, amountKobo in all (also a part payment still open there, SeerBit's
   * PARTIALLY_PAID). expired: the provider closed it unpaid because its own time ran out; Owo expires rather than fails it. */
  state: "pending" | "paid" | "failed" | "reversed" | "expired" | "not_found";
  providerReference?: string;
  /** What the provider recorded as received, converted to kobo by integer arithmetic. */
  amountKobo: number;
  currency: string;
  /** When the provider recorded the money (epoch ms): this time decides whether the payment was alive. */
  paidAt?: number;
  /** What the customer was charged in all, where it differs from amountKobo (a fee the customer bore on top): what
   * a notice's own amount is checked against. */
  chargedKobo?: number;
  /** The merchant's fee on all the money of this record (API.md "Fees"), in kobo; absent when the record has none. */
  feeKobo?: number;
  /** reversed, confirming a notice of a resolved dispute: what the provider took back, as the notice says (Paystack's
   * refund_amount); the transaction's record alone says only that it was reversed. */
  disputedKobo?: number;
  /** reversed, as the provider's own list of the payment's disputes tells it (Paystack's List Disputes): each dispute
   * resolved against the merchant, what it took back, under the provider's id for it — the key its notice and a
   * settlement deducting it carry. Absent when none is listed: then the record says only that it was reversed. */
  chargebacks?: { deduction: string; amountKobo: number }[];
};

/** What an inbound notice says, once its signature has been checked. A payment's amountKobo is what the provider
 * says it received for that payment in all (SeerBit's notices carry the running total, not the last credit). Every
 * kind carries `reference` where the notice names one: the reference the transaction was created with at the
 * provider, Owo's under its own prefix (own-references.ts) or the merchant's other sale on the same account. */
export type NoticeReading =
  | {
      kind: "payment";
      eventId: string;
      reference?: string;
      providerReference?: string;
      /** reversed: the provider took money back from the merchant for it (Paystack's resolved chargeback); amountKobo is what it took. */
      outcome: "paid" | "failed" | "reversed";
      amountKobo: number;
      currency: string;
      at?: number;
      /** reversed: the provider's own id for what it took back (Paystack's dispute), the key a settlement line
       * deducting the same money carries (settlement-reading.ts), so either books it once. */
      deduction?: string;
    }
  | {
      kind: "refund";
      eventId: string;
      /** The provider's refund id, where its event names one (Paystack's refund events often do not). */
      refundId?: string;
      /** The refunded payment's providerReference and the refund's amount: how to find the refund without its id. */
      providerReference?: string;
      reference?: string;
      amountKobo?: number;
      state: "processed" | "failed" | "needs_attention";
    }
  | { kind: "ignored"; eventId: string; reference?: string; why: string };

/** Where a bank's own notice points: the account opened for a payment, or the dial code's bank and reference. */
export type NoticeTarget = { accountNumber: string } | { bankCode: string; providerReference: string };

/** A bank's notice of one movement of money (the sandbox bank's): each credit or decline on its own, not a running
 * total like a provider's record, judged by its arrival. */
export type BankNotice = {
  provider: string;
  transactionId: string;
  kind: "credit" | "decline";
  amountKobo: number;
  senderName?: string | null;
  bankTime?: number | null;
  target: NoticeTarget;
  /** The fee the bank charged on this credit, by its published schedule (API.md "Fees": a fee on every credit), read
   * by its connector as a provider's record carries `feeKobo`. Absent: the bank's schedule applies (sandbox/notices.ts recordAfter). */
  feeKobo?: number;
};

/** What a refund notice says (NoticeReading's refund). */
export type RefundReading = Extract<NoticeReading, { kind: "refund" }>;

export type RefundRequest = { reference: string; providerReference: string; amountKobo: number; refundReference: string; reason: string };
/** A refund whose submission went unanswered, looked for at the provider: made no earlier than `since` (epoch ms),
 * and none of the provider's refund ids Owo already holds for other refunds of the payment. */
export type RefundLookup = RefundRequest & { since: number; knownRefundIds: string[] };
/** needs_attention: the provider cannot pay it back without the customer's bank account (Paystack's `needs-attention`). */
export type RefundState = { refundId: string; state: "pending" | "processed" | "failed" | "needs_attention" };

/** A bank as the provider's own bank list names it: `code` is the bank's code, `providerBankId` what the provider's
 * refund retry takes (Paystack's List Banks `id`). */
export type ProviderBank = { code: string; name: string; providerBankId: string };

/** The customer's account the merchant gave for a refund that needs one. */
export type CustomerAccount = { bank: ProviderBank; accountNumber: string; currency: string };

/**
 * A provider's answer that Owo could not use (timeout, 5xx, refused connection, malformed answer). `mayHaveReached`
 * is false only when the request certainly never reached the provider (the connection was refused, the host not
 * found, or the call was never made): for a refund, which providers take without an idempotency key, only then is
 * sending it again safe.
 */
export class ProviderUnavailable extends Error {
  constructor(
    readonly provider: ProviderName,
    message: string,
    readonly mayHaveReached = true,
  ) {
    super(message);
  }
}

/**
 * The provider answered and said no (a 4xx in its own words: a wrong key, a reused reference, a refund larger than
 * it allows). Final for this request, unlike ProviderUnavailable: issuing moves on to the next provider, and a
 * refund it refused has failed rather than being asked again.
 */
export class ProviderRefused extends Error {
  constructor(
    readonly provider: ProviderName,
    message: string,
  ) {
    super(message);
  }
}

/** A notice whose signature (or, for SeerBit, shape) fails: answered 401 and nothing moves. */
export class NoticeRejected extends Error {}

export interface Connector {
  readonly name: ProviderName;
  /** Notices nobody can verify (SeerBit's): each is only a prompt to ask the provider, never settles anything itself. */
  readonly unsignedNotices?: true;
  /** Whether this provider can issue on the channel (and, for USSD, for the customer's bank). */
  serves(channel: Channel, bank?: Bank): boolean;
  issue(account: ProviderAccount, req: IssueRequest, signal: AbortSignal): Promise<Issued>;
  /** Checks the signature first (throws NoticeRejected), then reads the body; never trusts it for money alone. */
  readNotice(account: ProviderAccount, rawBody: Buffer, headers: Record<string, string | string[] | undefined>): NoticeReading;
  /** Asks the provider how the payment with Owo's `reference` stands. */
  query(account: ProviderAccount, reference: string, signal: AbortSignal): Promise<ProviderPaymentState>;
  /** Refunds through this provider need the provider's approval per merchant (SeerBit's): only an account the
   * merchant marked refund-enabled refunds through Owo; any other is 409 S15 "refund it at the provider". */
  readonly refundsNeedApproval?: true;
  /**
   * The body a notice is answered with, where the provider asks for one (SeerBit echoes back its
   * X-Expected-Ack-Reference): then the notice is acknowledged at once and confirmed by query after the answer.
   */
  acknowledgeNotice?(headers: Record<string, string | string[] | undefined>): Record<string, unknown>;
  /** Absent where the provider cannot refund these charges (then refunds are 409 S15 "refund it at the provider"). */
  refund?(account: ProviderAccount, req: RefundRequest, signal: AbortSignal): Promise<RefundState>;
  queryRefund?(account: ProviderAccount, refundId: string, signal: AbortSignal): Promise<RefundState>;
  /** The banks a customer's account for a refund may be at (the provider's own list); absent where no refund ever
   * needs the customer's account. */
  refundBanks?(account: ProviderAccount, signal: AbortSignal): Promise<ProviderBank[]>;
  /** Sends a refund that needs attention again, to the customer's account (Paystack's retry_with_customer_details). */
  retryRefund?(account: ProviderAccount, refundId: string, to: CustomerAccount, signal: AbortSignal): Promise<RefundState>;
  /**
   * Whether the provider holds this refund, for a submission that got no usable answer: its state, or null when the
   * provider's own list certainly has no such refund. Absent where the provider offers no way to find one: then an
   * unanswered refund is never sent again (it stays PENDING, flagged, until a notice or query settles it).
   */
  findRefund?(account: ProviderAccount, lookup: RefundLookup, signal: AbortSignal): Promise<RefundState | null>;
  /**
   * The settlements the provider made to the merchant since `since` (epoch ms), each with its lines, as the provider
   * published them (./settlement-reading.ts), one at a time as they are read, so what was read is recorded even when a
   * later call fails or the time runs out; one that cannot be read is said so and the rest are still read. `known`:
   * the status Owo recorded for each settlement it holds, by the provider's id; one it holds as paid or failed that the
   * provider still lists so is not read again in detail (a month of a busy account's transactions is hundreds of
   * calls). Absent where the provider publishes no settlements (SeerBit's: Owo expects its days).
   */
  readSettlements?(
    account: ProviderAccount,
    since: number,
    known: ReadonlyMap<string, SettlementStatus>,
    signal: AbortSignal,
  ): AsyncIterable<SettlementRead>;
  /** One harmless authenticated call, for the dashboard's "test connection". */
  testConnection(account: ProviderAccount, signal: AbortSignal): Promise<void>;
}
