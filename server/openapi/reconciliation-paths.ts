// The reconciliation part of the OpenAPI document (API.md "Reconciliation"): the period report with its exceptions,
// resolving one, and importing the merchant's bank statement.
import { z } from "zod";
import { resolveInput } from "../reconciliation/resolve";
import { statementInput } from "../reconciliation/statement-lines";
import { dayParameter, failing, jsonAnswer, jsonBody, naira, OK, success, time } from "./operations";
import { jsonSchema } from "./request-schemas";
import { settlementExample } from "./settlement-paths";

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

export const reconciliationSchemas = {
  ResolveRequest: jsonSchema(resolveInput),
  BankStatementRequest: jsonSchema(statementInput),
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

export function reconciliationPaths() {
  return {
    "/api/v2/reconciliation": {
      get: {
        tags: ["Reconciliation"],
        operationId: "reconciliationReport",
        summary: "The period report: what the providers held, took in and paid out, and the exceptions open in the period",
        description: "opening + credits − fees − refunds − adjustments − paidOut + external + suspense = closing always holds.",
        parameters: [
          { ...dayParameter("from", "First Africa/Lagos day, inclusive"), required: true },
          { ...dayParameter("to", "Last Africa/Lagos day, inclusive"), required: true },
        ],
        responses: {
          "200": jsonAnswer("The report", "ReconciliationAnswer", {
            day: {
              status: "SUCCESS",
              data: {
                ...OK,
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
        requestBody: jsonBody("ResolveRequest", { writeOff: { note: "Provider's fee error, written off", writeOff: true } }),
        responses: {
          "200": jsonAnswer("The exception, resolved", "ExceptionAnswer", {
            resolved: {
              status: "SUCCESS",
              data: {
                ...OK,
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
        requestBody: jsonBody("BankStatementRequest", {
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
                ...OK,
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
