// The books part of the OpenAPI document (API.md "Ledger and balances", "Fees"): the balances with the chain's head,
// the ledger's entries with their postings, and the fee quote before initiating.
import { z } from "zod";
import { declaredTables } from "../../db/schema";
import { dayParameter, failing, jsonAnswer, naira, OK, success, time } from "./operations";
import { jsonSchema } from "./request-schemas";

const head = z.object({
  sequence: z.number().int().describe("The last entry's sequence in this mode; 0 before any"),
  hash: z.string().describe("Its hash (SHA-256, hex): keep it and pass it to `ledger verify --expect-head` later"),
});

const providerBalance = z.object({
  providerId: z.string().describe('The provider account (prv_…), or "sandbox"'),
  provider: z.string().describe("sandbox, paystack, flutterwave or seerbit"),
  unsettled: naira.describe("What the provider holds for you, not yet paid out; negative when it paid back more than it held"),
  wallet: naira.describe("What it paid into your wallet with it instead of your bank"),
});

const entry = z.object({
  entryId: z.string().describe("led_…"),
  sequence: z.number().int(),
  kind: z.enum(declaredTables.ledgerEntries.kind.enumValues),
  reason: z.string().nullable().describe("An adjustment's reason (chargeback, stamp_duty, …); null for the other kinds"),
  paymentReference: z.string().nullable(),
  refundReference: z.string().nullable(),
  settlementId: z.string().nullable(),
  postedAt: time,
  postings: z.array(z.object({ account: z.string(), amount: naira.describe("Debits positive, credits negative") })),
  hash: z.string(),
});

const quote = z.object({
  provider: z.string(),
  providerId: z.string().describe('The provider account (prv_…), or "sandbox" in test mode'),
  fee: naira.describe("What that provider's schedule charges you for this payment"),
  net: naira.describe("What you keep"),
});

export const ledgerSchemas = {
  BalancesAnswer: jsonSchema(
    success({
      asOf: time,
      ledgerHead: head,
      balances: z.object({
        providers: z.array(providerBalance),
        bank: naira,
        sales: naira,
        fees: naira,
        refunds: naira,
        refundDue: naira,
        adjustments: naira,
        external: naira,
        suspense: naira,
      }),
    }),
  ),
  LedgerEntriesAnswer: jsonSchema(success({ entries: z.array(entry), nextCursor: z.string().nullable() })),
  FeeQuoteAnswer: jsonSchema(success({ quotes: z.array(quote) })),
};

const HASH = "3b1f0c9e5a7d2e4f6a8b0c1d3e5f7a9b1c3d5e7f9a0b2c4d6e8f0a1b3c5d7e9f";

const entryExample = {
  entryId: "led_8s2d4f6g8h0j2k4l6z8x",
  sequence: 2,
  kind: "credit",
  reason: null,
  paymentReference: "ord-1002",
  refundReference: null,
  settlementId: null,
  postedAt: "2026-11-26T10:05:00.000Z",
  postings: [
    { account: "provider:sandbox", amount: "2500.00" },
    { account: "sales", amount: "-2500.00" },
    { account: "fees", amount: "137.50" },
    { account: "provider:sandbox", amount: "-137.50" },
  ],
  hash: HASH,
};

const query = (name: string, description: string, schema: Record<string, unknown>, required = false) => ({
  name,
  in: "query",
  required,
  description,
  schema,
});

export function ledgerPaths() {
  return {
    "/api/v2/balances": {
      get: {
        tags: ["Books"],
        operationId: "balances",
        summary: "Every account of your books in its natural sign, with the ledger's head",
        description:
          "Read from the kept balances, which always equal the sum of their entries. Debit-normal accounts (providers, bank, fees, refunds, adjustments) are debits − credits; credit-normal ones (sales, refundDue, external, suspense) credits − debits.",
        responses: {
          "200": jsonAnswer("The balances in your token's mode", "BalancesAnswer", {
            balances: {
              status: "SUCCESS",
              data: {
                ...OK,
                asOf: "2026-11-26T12:00:00.000Z",
                ledgerHead: { sequence: 2, hash: HASH },
                balances: {
                  providers: [{ providerId: "sandbox", provider: "sandbox", unsettled: "2362.50", wallet: "0.00" }],
                  bank: "0.00",
                  sales: "2500.00",
                  fees: "137.50",
                  refunds: "0.00",
                  refundDue: "0.00",
                  adjustments: "0.00",
                  external: "0.00",
                  suspense: "0.00",
                },
              },
            },
          }),
          ...failing("Unauthorized", "TooManyRequests", "ServerError"),
        },
      },
    },
    "/api/v2/ledger/entries": {
      get: {
        tags: ["Books"],
        operationId: "ledgerEntries",
        summary: "Your ledger's entries with their postings, newest first",
        parameters: [
          dayParameter("from", "First Africa/Lagos day, inclusive, by postedAt"),
          dayParameter("to", "Last Africa/Lagos day, inclusive"),
          query("cursor", "nextCursor of the previous page", { type: "string" }),
          query("limit", "Entries a page", { type: "integer", minimum: 1, maximum: 500, default: 100 }),
          query("paymentReference", "Only the entries of this payment", { type: "string" }),
        ],
        responses: {
          "200": jsonAnswer("A page of entries", "LedgerEntriesAnswer", {
            page: { status: "SUCCESS", data: { ...OK, entries: [entryExample], nextCursor: "2" } },
          }),
          ...failing("BadRequest", "Unauthorized", "TooManyRequests", "ServerError"),
        },
      },
    },
    "/api/v2/fees/quote": {
      get: {
        tags: ["Books"],
        operationId: "quoteFees",
        summary: "What each provider that would serve a payment charges, and what you keep, before initiating",
        description:
          "Test mode: the sandbox bank's published schedule. Live mode: each connected provider account that would serve the payment and carries an agreed fee schedule, in routing order. The fields are read as initiation reads them and refused in its codes: the amount alone (format or the channel's limits) S2, the bank alone (unknown, or no USSD) S8, anything else S5; other query fields are ignored.",
        parameters: [
          query("amount", 'Naira with at most 2 decimals, within the channel\'s limits, e.g. "10000.00"', { type: "string" }, true),
          query("paymentType", "The channel", { type: "string", enum: ["USSD", "TRANSFER"] }, true),
          query("bankCode", "The customer's bank (USSD: required, it decides who serves the payment; TRANSFER: absent)", {
            type: "string",
          }),
        ],
        responses: {
          "200": jsonAnswer("The quotes", "FeeQuoteAnswer", {
            sandbox: {
              status: "SUCCESS",
              data: { ...OK, quotes: [{ provider: "sandbox", providerId: "sandbox", fee: "250.00", net: "9750.00" }] },
            },
          }),
          ...failing("BadRequest", "Unauthorized", "TooManyRequests", "ServerError"),
        },
      },
    },
  };
}
