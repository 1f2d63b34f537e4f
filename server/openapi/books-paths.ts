// The settlements, reconciliation and bank-statement part of the OpenAPI document (API.md "Settlements" and
// "Reconciliation"): answers as zod schemas, request bodies from the schemas the doors parse with, and examples.
import { z } from "zod";
import { settlementFaults } from "../providers/sandbox/settlement";
import { resolveInput } from "../reconciliation/resolve";
import { statementInput } from "../reconciliation/statement-lines";
import { jsonSchema } from "./request-schemas";

const naira = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe('Naira with two decimals, e.g. "9750.00"; deductions and debits negative');
const time = z.iso.datetime().describe("ISO 8601 UTC");
const successful = { code: z.literal("00"), message: z.string() };
const success = <T extends z.ZodRawShape>(data: T) =>
  z.object({ status: z.literal("SUCCESS"), data: z.object({ ...successful, ...data }) });

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

const exception = z.object({
  exceptionId: z.string().describe("rex_…"),
  kind: z.enum(["unknown_payment", "amount_mismatch", "fee_mismatch", "net_mismatch", "not_settled", "bank_unmatched"]),
  settlementId: z.string().nullable(),
  paymentReference: z.string().nullable(),
  expected: naira.nullable(),
  actual: naira.nullable(),
  openedAt: time,
  age: z.number().int().describe("Whole days open (until resolved, once resolved)"),
  resolvedAt: time.nullable(),
  note: z.string().nullable(),
});

const statementLine = z.object({
  lineId: z.string().describe("bsl_…"),
  date: z.string().describe("The Lagos day the bank booked it, YYYY-MM-DD"),
  amount: naira,
  reference: z.string(),
  narration: z.string(),
  settlementId: z.string().nullable().describe("The settlement the line confirmed"),
  match: z.enum(["matched", "unmatched", "other_income", "debit"]),
  duplicate: z.boolean().describe("Equal in all four fields to a line already imported for the account: ignored"),
});

export const bookSchemas = {
  SettlementFaults: jsonSchema(settlementFaults),
  ResolveRequest: jsonSchema(resolveInput),
  BankStatementRequest: jsonSchema(statementInput),
  SettlementWithLinesAnswer: jsonSchema(success({ settlement: settlement.extend({ lines: z.array(line) }) })),
  SettlementsAnswer: jsonSchema(success({ settlements: z.array(settlement), nextCursor: z.string().nullable() })),
  ReconciliationAnswer: jsonSchema(
    success({
      report: z.object({
        from: z.string(),
        to: z.string(),
        opening: naira,
        credits: naira,
        fees: naira,
        refunds: naira,
        adjustments: naira,
        paidOut: naira,
        external: naira,
        suspense: naira,
        closing: naira,
        ledgerHead: z.object({ sequence: z.number().int(), hash: z.string() }).nullable(),
        exceptions: z.array(exception),
      }),
    }),
  ),
  ExceptionAnswer: jsonSchema(success({ exception })),
  BankStatementAnswer: jsonSchema(success({ lines: z.array(statementLine) })),
};

const ok = { code: "00", message: "Successful" };
const settlementExample = {
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
const exceptionExample = {
  exceptionId: "rex_7h3j5k1l9m2n4b6v8c0x",
  kind: "fee_mismatch",
  settlementId: "stl_4k2m9q0x7c1v8b3n6z5a",
  paymentReference: "ord-1002",
  expected: "137.50",
  actual: "142.50",
  openedAt: "2026-11-27T00:00:05.000Z",
  age: 0,
  resolvedAt: null,
  note: null,
};

type Helpers = {
  jsonAnswer: (description: string, schema: string, named: Record<string, unknown>) => unknown;
  failing: (
    ...names: (
      "BadRequest" | "Unauthorized" | "Forbidden" | "NotFound" | "Conflict" | "UnsupportedMediaType" | "TooManyRequests" | "ServerError"
    )[]
  ) => Record<string, unknown>;
  ref: (name: string) => unknown;
};

const day = (name: string, description: string) => ({
  name,
  in: "query",
  required: false,
  description,
  schema: { type: "string", format: "date" },
});

export function bookPaths({ jsonAnswer, failing, ref }: Helpers) {
  const body = (schema: string, examples: Record<string, unknown>) => ({
    required: true,
    content: {
      "application/json": {
        schema: ref(schema),
        examples: Object.fromEntries(Object.entries(examples).map(([k, v]) => [k, { value: v }])),
      },
    },
  });
  return {
    "/api/v2/settlements": {
      get: {
        tags: ["Settlements"],
        operationId: "listSettlements",
        summary: "Payouts from the providers to you, newest first",
        parameters: [
          day("from", "First Africa/Lagos day, inclusive, by when Owo first read the settlement"),
          day("to", "Last Africa/Lagos day, inclusive"),
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
            page: { status: "SUCCESS", data: { ...ok, settlements: [settlementExample], nextCursor: null } },
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
            settlement: { status: "SUCCESS", data: { ...ok, settlement: { ...settlementExample, lines: [lineExample] } } },
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
        requestBody: body("SettlementFaults", {
          clean: {},
          faulty: { shortBy: "10.00", feeBy: "5.00", unknownLine: true, adjustment: "50.00" },
        }),
        responses: {
          "200": jsonAnswer("The settlement, already paid, with its lines", "SettlementWithLinesAnswer", {
            paid: { status: "SUCCESS", data: { ...ok, settlement: { ...settlementExample, lines: [lineExample] } } },
          }),
          ...failing("BadRequest", "Unauthorized", "Forbidden", "UnsupportedMediaType", "TooManyRequests", "ServerError"),
        },
      },
    },
    "/api/v2/reconciliation": {
      get: {
        tags: ["Reconciliation"],
        operationId: "reconciliationReport",
        summary: "The period report: what the providers held, took in and paid out, and the exceptions open in the period",
        description: "opening + credits − fees − refunds − adjustments − paidOut + external + suspense = closing always holds.",
        parameters: [
          { ...day("from", "First Africa/Lagos day, inclusive"), required: true },
          { ...day("to", "Last Africa/Lagos day, inclusive"), required: true },
        ],
        responses: {
          "200": jsonAnswer("The report", "ReconciliationAnswer", {
            day: {
              status: "SUCCESS",
              data: {
                ...ok,
                report: {
                  from: "2026-11-26",
                  to: "2026-11-26",
                  opening: "0.00",
                  credits: "2500.00",
                  fees: "137.50",
                  refunds: "0.00",
                  adjustments: "0.00",
                  paidOut: "2362.50",
                  external: "0.00",
                  suspense: "0.00",
                  closing: "0.00",
                  ledgerHead: { sequence: 2, hash: "9f2c…" },
                  exceptions: [exceptionExample],
                },
              },
            },
          }),
          ...failing("BadRequest", "Unauthorized", "TooManyRequests", "ServerError"),
        },
      },
    },
    "/api/v2/reconciliation/exceptions/{exceptionId}/resolve": {
      post: {
        tags: ["Reconciliation"],
        operationId: "resolveException",
        summary: "Resolve an exception with a note; writeOff books its residue as an adjustment",
        parameters: [
          { name: "exceptionId", in: "path", required: true, schema: { type: "string" }, example: exceptionExample.exceptionId },
        ],
        requestBody: body("ResolveRequest", { writeOff: { note: "Provider's fee error, written off", writeOff: true } }),
        responses: {
          "200": jsonAnswer("The exception, resolved", "ExceptionAnswer", {
            resolved: {
              status: "SUCCESS",
              data: {
                ...ok,
                exception: { ...exceptionExample, resolvedAt: "2026-11-27T09:12:00.000Z", note: "Provider's fee error, written off" },
              },
            },
          }),
          ...failing("BadRequest", "Unauthorized", "NotFound", "Conflict", "UnsupportedMediaType", "TooManyRequests", "ServerError"),
        },
      },
    },
    "/api/v2/bank-statements": {
      post: {
        tags: ["Reconciliation"],
        operationId: "importBankStatement",
        summary: "Import your bank statement: each credit matched to a payout, what names a provider and matches nothing flagged",
        description:
          "Credits positive, debits negative (kept, not matched). A line equal in all four fields to one already imported is ignored.",
        requestBody: body("BankStatementRequest", {
          statement: {
            accountNumber: "0123456789",
            lines: [{ date: "2026-11-27", amount: "2362.50", reference: "NIP/TRF/77120", narration: "OWO SANDBOX SETTLEMENT" }],
          },
        }),
        responses: {
          "200": jsonAnswer("Each line with the settlement it confirmed", "BankStatementAnswer", {
            matched: {
              status: "SUCCESS",
              data: {
                ...ok,
                lines: [
                  {
                    lineId: "bsl_2w4e6r8t0y1u3i5o7p9a",
                    date: "2026-11-27",
                    amount: "2362.50",
                    reference: "NIP/TRF/77120",
                    narration: "OWO SANDBOX SETTLEMENT",
                    settlementId: settlementExample.settlementId,
                    match: "matched",
                    duplicate: false,
                  },
                ],
              },
            },
          }),
          ...failing("BadRequest", "Unauthorized", "UnsupportedMediaType", "TooManyRequests", "ServerError"),
        },
      },
    },
  };
}
