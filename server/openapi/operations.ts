// The pieces every part of the OpenAPI document shares (document.ts assembles them): references to components, a JSON
// answer with its examples, and the error answers under the API.md code that decides each HTTP status.
import { z } from "zod";
import { ApiError, type ApiCode, type FieldError } from "../api-error";
import * as examples from "./examples";

export const naira = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe('Naira with two decimals, e.g. "9750.00"; deductions and debits negative');
export const time = z.iso.datetime().describe("ISO 8601 UTC");
/** A successful answer's envelope around `data`'s own fields. */
export const success = <T extends z.ZodRawShape>(data: T) =>
  z.object({ status: z.literal("SUCCESS"), data: z.object({ code: z.literal("00"), message: z.string(), ...data }) });
export const OK = { code: "00", message: "Successful" } as const;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const requestId = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };

/** Named example values as OpenAPI's `examples` holds them. */
const examplesOf = (named: Record<string, unknown>) => Object.fromEntries(Object.entries(named).map(([name, value]) => [name, { value }]));

export function jsonAnswer(description: string, schema: string, named: Record<string, unknown>) {
  return { description, headers: requestId, content: { "application/json": { schema: ref(schema), examples: examplesOf(named) } } };
}

const errorExample = (code: ApiCode, message: string, errors: FieldError[] = []) => ({ status: "ERROR", data: { code, message, errors } });
/** A failure shown by one example: its own code's error answer with `message` (and `errors`). */
const failure = (code: ApiCode, description: string, message: string, errors?: FieldError[]) => ({
  code,
  description,
  examples: { [code]: errorExample(code, message, errors) },
});

/** The error answers, each under the API.md code that decides its HTTP status. */
const FAILURES = {
  BadRequest: {
    code: "S5",
    description:
      "A field missing or malformed (S5, every field listed), or one field alone at fault: amount S2, currency S4, country S6, bankCode S8",
    examples: {
      S5: examples.fieldErrorAnswerExample,
      S2: errorExample("S2", "Invalid amount: amount must be from 100.00 to 1000000.00 for USSD", [
        { field: "amount", message: "must be from 100.00 to 1000000.00 for USSD" },
      ]),
    },
  },
  Unauthorized: failure(
    "S1",
    "Missing, malformed, expired or revoked bearer token; wrong key pair; publicKey not the token's",
    "Invalid or expired access token",
  ),
  Forbidden: failure("S3", "Not allowed in this mode, e.g. sandbox simulation with a live key", "The sandbox bank serves test keys only"),
  NotFound: failure(
    "S404",
    "No such payment for this merchant (another merchant's is not found either)",
    "No payment with reference ord-1001",
  ),
  Conflict: {
    code: "S14",
    description:
      "S14: paymentReference already used by this merchant, in this mode, with a different request. S15: the payment's state forbids the action",
    examples: {
      S14: errorExample("S14", "paymentReference ord-1001 was already used with a different request", [
        { field: "paymentReference", message: "is already used by another payment; send a new reference or the exact same request" },
      ]),
      S15: errorExample("S15", "Only a pending payment can be cancelled; ord-1001 is SUCCESSFUL"),
    },
  },
  PayloadTooLarge: failure("S413", "Body larger than 16 KiB", "Request body larger than 16384 bytes (16 KiB)"),
  UnsupportedMediaType: failure("S415", "Content-Type is not application/json", "Content-Type must be application/json"),
  TooManyRequests: failure("S429", "Rate limit; retry after Retry-After seconds", "Too many requests: retry after 1 s"),
  BadGateway: failure(
    "S502",
    "The provider did not answer in time (each provider named in errors); nothing moved, send it again",
    "paystack did not answer; the refund still needs the customer's account: try again",
    [{ field: "provider.paystack", message: "timeout after 5 s" }],
  ),
  ServerError: failure(
    "S500",
    "Unexpected fault; the message carries the request id, never internals",
    "Unexpected error; quote request id req_3kTq9c0bYw1x to support",
  ),
} satisfies Record<string, { code: ApiCode; description: string; examples: Record<string, unknown> }>;

type Failure = keyof typeof FAILURES;

const retryAfter = { "Retry-After": { description: "Whole seconds, at least 1", schema: { type: "integer", minimum: 1 } } };

export function failureResponses() {
  return Object.fromEntries(
    Object.entries(FAILURES).map(([name, f]) => {
      const answer = jsonAnswer(f.description, "ErrorAnswer", f.examples);
      return [name, name === "TooManyRequests" ? { ...answer, headers: { ...answer.headers, ...retryAfter } } : answer];
    }),
  );
}

export const failing = (...names: Failure[]) =>
  Object.fromEntries(
    names.map((name) => [String(new ApiError(FAILURES[name].code, "").httpStatus), { $ref: `#/components/responses/${name}` }]),
  );

export const referenceParameter = {
  name: "paymentReference",
  in: "path",
  required: true,
  description: "Your paymentReference, as sent to initiate",
  schema: { type: "string", minLength: 1, maxLength: 64 },
  example: "ord-1002",
};

export const refundReferenceParameter = {
  name: "refundReference",
  in: "path",
  required: true,
  description: "The refundReference the refund was requested with (or Owo's RFD… one)",
  schema: { type: "string", minLength: 1, maxLength: 64 },
  example: "rf-ord-1002-1",
};

/** A required JSON request body of a component schema, with named examples. */
export const jsonBody = (schema: string, named: Record<string, unknown>) => ({
  required: true,
  content: { "application/json": { schema: ref(schema), examples: examplesOf(named) } },
});

/** An optional Africa/Lagos day in the query (YYYY-MM-DD). */
export const dayParameter = (name: string, description: string) => ({
  name,
  in: "query",
  required: false,
  description,
  schema: { type: "string", format: "date" },
});
