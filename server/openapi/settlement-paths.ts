// The settlements part of the OpenAPI document (API.md "Settlements"): payouts from the providers with their lines, and
// the sandbox bank's settle-now with the faults a real provider's settlement can carry.
import { z } from "zod";
import { settlementFaults } from "../providers/sandbox/settlement";
import { dayParameter, failing, jsonAnswer, jsonBody, naira, OK, success, time } from "./operations";
import { jsonSchema } from "./request-schemas";

const settlement = z.object({
  settlementId: z.string().describe("Owo's id, stl_…"),
  provider: z.enum(["sandbox", "paystack", "flutterwave", "seerbit"]),
  providerId: z.string().describe('The provider account (prv_…), or "sandbox"'),
  providerSettlementId: z.string().describe("The provider's own id of the settlement"),
  status: z.enum(["expected", "pending", "processing", "withheld", "paid", "failed"]),
  destination: z.enum(["bank", "wallet"]),
  currency: z.string(),
  grossAmount: naira,
  feeAmount: naira,
  refundAmount: naira,
  adjustmentAmount: naira,
  netAmount: naira.describe("What the provider paid: gross − fees − refunds − adjustments in a correct settlement"),
  count: z.number().int().describe("How many lines"),
  settledAt: time.nullable(),
  bankReference: z.string().nullable().describe("The reference of the bank statement line that confirmed it"),
  reconciliation: z.object({ status: z.enum(["unchecked", "matched", "exceptions"]), exceptions: z.number().int() }),
});

const line = z.object({
  kind: z.enum(["payment", "refund", "adjustment", "external", "unknown"]),
  providerTransactionId: z.string(),
  paymentReference: z.string().nullable().describe("The payment the line matched; null when none"),
  providerReference: z.string().nullable(),
  grossAmount: naira,
  feeAmount: naira,
  netAmount: naira,
  matched: z.boolean(),
});

export const settlementSchemas = {
  SettlementFaults: jsonSchema(settlementFaults),
  SettlementWithLinesAnswer: jsonSchema(success({ settlement: settlement.extend({ lines: z.array(line) }) })),
  SettlementsAnswer: jsonSchema(success({ settlements: z.array(settlement), nextCursor: z.string().nullable() })),
};

export const settlementExample = {
  settlementId: "stl_4k2m9q0x7c1v8b3n6z5a",
  provider: "sandbox",
  providerId: "sandbox",
  providerSettlementId: "sbs_1f2e3d4c5b6a7988",
  status: "paid",
  destination: "bank",
  currency: "NGN",
  grossAmount: "2500.00",
  feeAmount: "137.50",
  refundAmount: "0.00",
  adjustmentAmount: "0.00",
  netAmount: "2362.50",
  count: 1,
  settledAt: "2026-11-26T23:00:00.000Z",
  bankReference: null,
  reconciliation: { status: "matched", exceptions: 0 },
};
const lineExample = {
  kind: "payment",
  providerTransactionId: "sbn_9a8b7c6d5e4f",
  paymentReference: "ord-1002",
  providerReference: "OWO20261126100000001",
  grossAmount: "2500.00",
  feeAmount: "137.50",
  netAmount: "2362.50",
  matched: true,
};
export function settlementPaths() {
  return {
    "/api/v2/settlements": {
      get: {
        tags: ["Settlements"],
        operationId: "listSettlements",
        summary: "Payouts from the providers to you, newest first",
        parameters: [
          dayParameter("from", "First Africa/Lagos day, inclusive, by when Owo first read the settlement"),
          dayParameter("to", "Last Africa/Lagos day, inclusive"),
          { name: "status", in: "query", required: false, schema: { type: "string", enum: settlement.shape.status.options } },
          {
            name: "providerId",
            in: "query",
            required: false,
            description: 'A provider account (prv_…) or "sandbox"',
            schema: { type: "string" },
          },
          { name: "cursor", in: "query", required: false, description: "nextCursor of the previous page", schema: { type: "string" } },
          { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 200, default: 50 } },
        ],
        responses: {
          "200": jsonAnswer("A page of settlements", "SettlementsAnswer", {
            page: { status: "SUCCESS", data: { ...OK, settlements: [settlementExample], nextCursor: null } },
          }),
          ...failing("BadRequest", "Unauthorized", "TooManyRequests", "ServerError"),
        },
      },
    },
    "/api/v2/settlements/{settlementId}": {
      get: {
        tags: ["Settlements"],
        operationId: "getSettlement",
        summary: "One settlement with its lines (payments, refunds, deductions, other sales, unknown)",
        parameters: [
          { name: "settlementId", in: "path", required: true, schema: { type: "string" }, example: settlementExample.settlementId },
        ],
        responses: {
          "200": jsonAnswer("The settlement", "SettlementWithLinesAnswer", {
            settlement: { status: "SUCCESS", data: { ...OK, settlement: { ...settlementExample, lines: [lineExample] } } },
          }),
          ...failing("Unauthorized", "NotFound", "TooManyRequests", "ServerError"),
        },
      },
    },
    "/api/v2/sandbox/settlements": {
      post: {
        tags: ["Sandbox"],
        operationId: "settleSandbox",
        summary: "The sandbox bank settles now everything it holds for you, with any faults",
        description:
          "Test keys only. Faults as a real provider's settlement can carry them: omit payments, pay shortBy less, add an unknown line, charge feeBy more or report grossBy more on the first line, deduct a stamp-duty adjustment.",
        requestBody: jsonBody("SettlementFaults", {
          clean: {},
          faulty: { shortBy: "10.00", feeBy: "5.00", unknownLine: true, adjustment: "50.00" },
        }),
        responses: {
          "200": jsonAnswer("The settlement, already paid, with its lines", "SettlementWithLinesAnswer", {
            paid: { status: "SUCCESS", data: { ...OK, settlement: { ...settlementExample, lines: [lineExample] } } },
          }),
          ...failing("BadRequest", "Unauthorized", "Forbidden", "UnsupportedMediaType", "TooManyRequests", "ServerError"),
        },
      },
    },
  };
}
