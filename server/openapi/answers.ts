// The REST answers as zod schemas: the OpenAPI document publishes them, and tests hold the server's real answers to them.
import { z } from "zod";
import type { PaymentStatus } from "../../db/schema";
import { PAYMENT_TYPES } from "../payments/initiate-schema";
import { STATUS_ANSWER } from "../payments/status";

const statuses = Object.keys(STATUS_ANSWER) as [PaymentStatus, ...PaymentStatus[]];
const statusCodes = [...new Set(Object.values(STATUS_ANSWER).map((a) => a.code))] as [string, ...string[]];

const naira = z
  .string()
  .regex(/^\d+\.\d{2}$/)
  .describe('Naira with two decimals, e.g. "1500.00"');
const time = z.iso.datetime().describe("ISO 8601 UTC, e.g. 2026-11-21T10:10:00.000Z");
const paymentReference = z.string().describe("The merchant's reference, echoed unchanged");
const linkingReference = z
  .string()
  .regex(/^OWO\d{17}$/)
  .describe("Owo's own reference, unique across Owo");
const checkoutUrl = z.url().describe("Owo's hosted page for this payment: code or account, countdown, live status");
const expiresAt = time.describe("The payment is alive while now < expiresAt");
const accountNumber = z
  .string()
  .regex(/^\d{10}$/)
  .describe("10-digit NUBAN with a valid check digit; never reused");

function success<T extends z.ZodRawShape>(data: T) {
  return z.object({ status: z.literal("SUCCESS"), data: z.object(data) });
}

const successful = { code: z.literal("00"), message: z.string() };

export const tokenAnswer = success({
  ...successful,
  EncryptedSecKey: z.object({
    encryptedKey: z.string().describe("The bearer token: send it as Authorization: Bearer <encryptedKey>"),
    expiresAt: time.describe("The token dies then (OWO_TOKEN_TTL_SECONDS after the exchange, 24 h by default)"),
  }),
});

const bank = z.object({
  bankCode: z
    .string()
    .regex(/^\d{3}$/)
    .describe("CBN code; the bankCode of a USSD initiation"),
  bankName: z.string(),
  ussdCode: z
    .string()
    .regex(/^\*\d+#$/)
    .nullable()
    .describe("The bank's USSD short code; null when it has none"),
  supportsUssd: z.boolean(),
});

export const banksAnswer = success({ ...successful, banks: z.array(bank) });

export const merchantBanksAnswer = success({
  ...successful,
  merchantBanks: z.array(
    bank.extend({
      ussdCode: z
        .string()
        .regex(/^\*\d+#$/)
        .nullable()
        .describe("The bank's USSD short code where this merchant can take USSD from it in this mode; else null"),
      supportsUssd: z
        .boolean()
        .describe("Whether this merchant can take USSD from the bank in this mode (live: only where a connected provider serves it)"),
      status: z.literal("ACTIVE"),
      minimumAmount: naira.describe("The smallest amount a payment from this bank may be"),
    }),
  ),
});

export const ussdPayments = z.object({
  paymentReference,
  linkingReference,
  providerreference: z
    .string()
    .regex(/^\d{8}$/)
    .describe("The bank side's reference, 8 digits (spelled as the v2 API spells it)"),
  ussdDailCode: z
    .string()
    .regex(/^\*\d+\*000\*\d{8}#$/)
    .describe("What the customer dials: *<bank short code>*000*<providerreference># (spelled as the v2 API spells it)"),
  amount: naira,
  expiresAt,
  checkoutUrl,
});

export const transferPayments = z.object({
  paymentReference,
  walletName: z.string().describe("OWO(<merchant name>)"),
  wallet: accountNumber.describe("Equals accountNumber"),
  bankName: z.string().describe("The holding bank; Owo Sandbox Bank (code 000) in test mode"),
  accountNumber,
  linkingReference,
  amount: naira,
  expiresAt,
  checkoutUrl,
});

export const standardCheckoutAnswer = success({
  code: z.literal("00"),
  message: z.literal("Successful"),
  payments: z.object({
    redirectLink: checkoutUrl.describe("Owo's hosted checkout: the customer chooses USSD (and their bank) or TRANSFER there"),
    paymentStatus: z.literal("08").describe("Awaiting the customer"),
    paymentReference,
    linkingReference,
    expiresAt: expiresAt.describe("OWO_TRANSFER_TTL_SECONDS from creation; choosing a channel may shorten it to that channel's lifetime"),
  }),
});

export const ussdAnswer = success({ code: z.null(), message: z.null(), payments: ussdPayments });
export const transferAnswer = success({
  code: z.literal("00"),
  message: z.literal("ACCOUNT OPENED SUCCESSFULLY"),
  payments: transferPayments,
});

/** Verify's `payments` object; the simulator answers with it too. */
export const paymentState = z.object({
  paymentReference,
  linkingReference,
  paymentType: z
    .enum(PAYMENT_TYPES)
    .nullable()
    .describe("Null for a standard-checkout payment whose customer has not chosen a channel yet"),
  status: z.enum(statuses),
  amount: naira,
  amountPaid: naira.describe('"0.00" until money arrives; may exceed amount (overpaid)'),
  amountToRefund: naira.describe("Money that arrived after the payment closed"),
  amountRefunded: naira.describe("Sum of the refunds processed"),
  currency: z.literal("NGN"),
  country: z.literal("NG"),
  mode: z.enum(["test", "live"]),
  gatewayMessage: z.string(),
  gatewayCode: z.enum(statusCodes).describe("Repeats data.code, as SeerBit's clients read it"),
  provider: z
    .enum(["sandbox", "paystack", "flutterwave", "seerbit"])
    .nullable()
    .describe("Who issued the code or account; null while nothing is issued (standard checkout before the customer's choice)"),
  feeAmount: naira.describe('Sum of the fees charged on every credit of this payment (see Fees); "0.00" before money arrives'),
  settlementId: z.string().nullable().describe("The latest paid settlement holding one of its credits; null until then"),
  createdAt: time,
  paidAt: time.nullable().describe("Null unless SUCCESSFUL"),
  expiresAt,
  updatedAt: time,
});

export const verifyAnswer = success({
  code: z
    .enum(statusCodes)
    .describe("00 paid; S20 pending or partly paid; S12 failed; S0 expired; S13 cancelled. Anything but 00 is unpaid"),
  message: z.string(),
  payments: paymentState,
  customers: z.object({ customerName: z.string(), customerMobile: z.string(), customerEmail: z.string() }),
});

export const refundAnswer = success({
  ...successful,
  message: z.literal("Refund accepted"),
  refund: z.object({
    refundReference: z.string().describe("Yours, or Owo's RFD… when you sent none; send it again to get this answer again"),
    amount: naira,
    status: z.literal("PENDING").describe("Always PENDING here; refund.processed or refund.failed follows"),
    reason: z.string(),
    createdAt: time,
  }),
});

const REFUND_STATUS = z
  .enum(["PENDING", "NEEDS_ATTENTION", "PROCESSED", "FAILED"])
  .describe("PENDING until the provider says PROCESSED or FAILED; NEEDS_ATTENTION while it waits for the customer's bank account");

export const refundStatusAnswer = success({
  ...successful,
  message: z.literal("Successful"),
  refund: z.object({
    refundReference: z.string(),
    amount: naira,
    status: REFUND_STATUS,
    reason: z.string(),
    createdAt: time,
  }),
});

/** A refund the merchant moved (its customer's account given, or given up), as it now stands. */
export const refundMoveAnswer = success({
  ...successful,
  message: z.string(),
  refund: z.object({ refundReference: z.string(), amount: naira, status: REFUND_STATUS, reason: z.string(), createdAt: time }),
});

// Verify's own code and message: a part payment answers S20 here as well.
export const simulateAnswer = success({ code: verifyAnswer.shape.data.shape.code, message: z.string(), payments: paymentState });

export const errorAnswer = z.object({
  status: z.literal("ERROR"),
  data: z.object({
    code: z
      .string()
      .regex(/^S\d+$/)
      .describe("API.md's code: S1, S2, S3, S4, S5, S6, S8, S14, S15, S404, S405, S413, S415, S429, S500"),
    message: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).describe("The fields at fault; [] when none is"),
  }),
});
