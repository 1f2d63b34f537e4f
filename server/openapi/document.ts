// The OpenAPI 3.1 document of the public REST surface, generated from the zod schemas the doors themselves use.
import { z } from "zod";
import { ApiError, type ApiCode, type FieldError } from "../api-error";
import { simulateInput } from "../providers/sandbox/bank";
import { settings } from "../settings";
import { refundAccountInput } from "../payments/refund-attention";
import { refundInput } from "../payments/refunds";
import {
  banksAnswer,
  errorAnswer,
  refundAnswer,
  refundMoveAnswer,
  refundStatusAnswer,
  merchantBanksAnswer,
  standardCheckoutAnswer,
  simulateAnswer,
  tokenAnswer,
  transferAnswer,
  ussdAnswer,
  verifyAnswer,
} from "./answers";
import { bookPaths, bookSchemas } from "./books-paths";
import * as examples from "./examples";
import { initiateBranch, jsonSchema, standardCheckoutRequestSchema } from "./request-schemas";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const requestId = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };

function jsonAnswer(description: string, schema: string, named: Record<string, unknown>) {
  const exampleEntries = Object.entries(named).map(([name, value]) => [name, { value }]);
  return {
    description,
    headers: requestId,
    content: { "application/json": { schema: ref(schema), examples: Object.fromEntries(exampleEntries) } },
  };
}

const errorExample = (code: ApiCode, message: string, errors: FieldError[] = []) => ({ status: "ERROR", data: { code, message, errors } });

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
  Unauthorized: {
    code: "S1",
    description: "Missing, malformed, expired or revoked bearer token; wrong key pair; publicKey not the token's",
    examples: { S1: errorExample("S1", "Invalid or expired access token") },
  },
  Forbidden: {
    code: "S3",
    description: "Not allowed in this mode, e.g. sandbox simulation with a live key",
    examples: { S3: errorExample("S3", "The sandbox bank serves test keys only") },
  },
  NotFound: {
    code: "S404",
    description: "No such payment for this merchant (another merchant's is not found either)",
    examples: { S404: errorExample("S404", "No payment with reference ord-1001") },
  },
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
  PayloadTooLarge: {
    code: "S413",
    description: "Body larger than 16 KiB",
    examples: { S413: errorExample("S413", "Request body larger than 16384 bytes (16 KiB)") },
  },
  UnsupportedMediaType: {
    code: "S415",
    description: "Content-Type is not application/json",
    examples: { S415: errorExample("S415", "Content-Type must be application/json") },
  },
  TooManyRequests: {
    code: "S429",
    description: "Rate limit; retry after Retry-After seconds",
    examples: { S429: errorExample("S429", "Too many requests: retry after 1 s") },
  },
  BadGateway: {
    code: "S502",
    description: "The provider did not answer in time (each provider named in errors); nothing moved, send it again",
    examples: {
      S502: errorExample("S502", "paystack did not answer; the refund still needs the customer's account: try again", [
        { field: "provider.paystack", message: "timeout after 5 s" },
      ]),
    },
  },
  ServerError: {
    code: "S500",
    description: "Unexpected fault; the message carries the request id, never internals",
    examples: { S500: errorExample("S500", "Unexpected error; quote request id req_3kTq9c0bYw1x to support") },
  },
} satisfies Record<string, { code: ApiCode; description: string; examples: Record<string, unknown> }>;

type Failure = keyof typeof FAILURES;

const retryAfter = { "Retry-After": { description: "Whole seconds, at least 1", schema: { type: "integer", minimum: 1 } } };

function failureResponses() {
  return Object.fromEntries(
    Object.entries(FAILURES).map(([name, f]) => {
      const answer = jsonAnswer(f.description, "ErrorAnswer", f.examples);
      return [name, name === "TooManyRequests" ? { ...answer, headers: { ...answer.headers, ...retryAfter } } : answer];
    }),
  );
}

const failing = (...names: Failure[]) =>
  Object.fromEntries(
    names.map((name) => [String(new ApiError(FAILURES[name].code, "").httpStatus), { $ref: `#/components/responses/${name}` }]),
  );

const referenceParameter = {
  name: "paymentReference",
  in: "path",
  required: true,
  description: "Your paymentReference, as sent to initiate",
  schema: { type: "string", minLength: 1, maxLength: 64 },
  example: "ord-1002",
};

const refundReferenceParameter = {
  name: "refundReference",
  in: "path",
  required: true,
  description: "The refundReference the refund was requested with (or Owo's RFD… one)",
  schema: { type: "string", minLength: 1, maxLength: 64 },
  example: "rf-ord-1002-1",
};

const verifyOperation = (operationId: string, summary: string) => ({
  tags: ["Payments"],
  operationId,
  summary,
  description:
    "The payment as it stands. Never reports an open payment past its expiry: verify expires it then and there. Treat any code other than 00 as unpaid.",
  parameters: [referenceParameter],
  responses: {
    "200": jsonAnswer("The payment", "VerifyAnswer", {
      paid: examples.verifyAnswerExample,
      awaitingChoice: examples.standardCheckoutVerifyExample,
    }),
    ...failing("Unauthorized", "NotFound", "TooManyRequests", "ServerError"),
  },
});

export function openApiDocument(publicUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Owo payment initiation API",
      version: "2",
      description:
        "USSD and bank-transfer payment initiation, wire-compatible with the SeerBit-style v2 API. Within v2 changes are additive only. Guides: /docs.",
    },
    servers: [{ url: publicUrl }],
    tags: [
      { name: "Access", description: "Buy a bearer token with your API keys" },
      { name: "Payments", description: "Initiate and verify payments" },
      { name: "Banks", description: "Banks and their USSD codes" },
      { name: "Settlements", description: "Payouts from the providers, with their lines" },
      { name: "Reconciliation", description: "The period report, exceptions, bank statements" },
      { name: "Sandbox", description: "The sandbox bank, test keys only" },
      { name: "Document", description: "This document" },
    ],
    security: [{ bearer: [] }],
    paths: {
      "/api/v2/encrypt/keys": {
        post: {
          tags: ["Access"],
          operationId: "exchangeKeys",
          summary: "Exchange the key pair for a bearer token",
          security: [],
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref("KeyPair"), example: { key: "sk_test_….pk_test_…" } } },
          },
          responses: {
            "200": jsonAnswer("A token", "TokenAnswer", { token: examples.tokenAnswerExample }),
            ...failing("BadRequest", "Unauthorized", "PayloadTooLarge", "UnsupportedMediaType", "TooManyRequests", "ServerError"),
          },
        },
      },
      "/api/v2/banks": {
        get: {
          tags: ["Banks"],
          operationId: "listBanks",
          summary: "Banks, their codes and USSD short codes",
          security: [],
          responses: { "200": jsonAnswer("Every bank", "BanksAnswer", { banks: examples.banksAnswerExample }), ...failing("ServerError") },
        },
      },
      "/api/v2/banks/merchant/{publicKey}": {
        get: {
          tags: ["Banks"],
          operationId: "merchantBanks",
          summary: "The banks your customers can pay from, in your token's mode",
          description:
            "What SeerBit clients call merchant banks (e.g. seerbit-nodejs AccountsService.BanksList). In live mode a bank supports USSD only where a connected provider serves it.",
          parameters: [
            {
              name: "publicKey",
              in: "path",
              required: true,
              description: "The public key of the token's merchant",
              schema: { type: "string", minLength: 1 },
              example: "pk_test_…",
            },
          ],
          responses: {
            "200": jsonAnswer("Every bank, with what each channel needs", "MerchantBanksAnswer", {
              banks: examples.merchantBanksAnswerExample,
            }),
            ...failing("Unauthorized", "TooManyRequests", "ServerError"),
          },
        },
      },
      "/api/v2/payments": {
        post: {
          tags: ["Payments"],
          operationId: "standardCheckout",
          summary: "Standard checkout: a payment whose customer chooses USSD or TRANSFER on Owo's hosted page",
          description:
            "For clients written for SeerBit's standard checkout (e.g. seerbit-nodejs StandardCheckout.Initialize), unchanged. callbackUrl keeps SeerBit's meaning: where the browser returns, unless redirectUrl is sent too (then callbackUrl gets the signed callbacks). A URL without a scheme gets https://. Idempotent on paymentReference, as initiation.",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: ref("StandardCheckoutRequest"),
                examples: { seerbitNodejs: { value: examples.standardCheckoutRequestExample("pk_test_…") } },
              },
            },
          },
          responses: {
            "200": jsonAnswer("The hosted checkout link for this payment", "StandardCheckoutAnswer", {
              created: examples.standardCheckoutAnswerExample,
            }),
            ...failing(
              "BadRequest",
              "Unauthorized",
              "Conflict",
              "PayloadTooLarge",
              "UnsupportedMediaType",
              "TooManyRequests",
              "ServerError",
            ),
          },
        },
      },
      "/api/v2/payments/initiates": {
        post: {
          tags: ["Payments"],
          operationId: "initiatePayment",
          summary: "Initiate a USSD or TRANSFER payment",
          description: "Checks run in API.md's order; every field at fault is listed. Idempotent on paymentReference.",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: ref("InitiateRequest"),
                examples: {
                  USSD: { value: examples.ussdRequestExample("pk_test_…") },
                  TRANSFER: { value: examples.transferRequestExample("pk_test_…") },
                },
              },
            },
          },
          responses: {
            "200": {
              description: "The dial code (USSD) or the account opened for this payment (TRANSFER)",
              headers: requestId,
              content: {
                "application/json": {
                  schema: { oneOf: [ref("UssdAnswer"), ref("TransferAnswer")] },
                  examples: { USSD: { value: examples.ussdAnswerExample }, TRANSFER: { value: examples.transferAnswerExample } },
                },
              },
            },
            ...failing(
              "BadRequest",
              "Unauthorized",
              "Conflict",
              "PayloadTooLarge",
              "UnsupportedMediaType",
              "TooManyRequests",
              "ServerError",
            ),
          },
        },
      },
      "/api/v3/payments/query/{paymentReference}": { get: verifyOperation("verifyPayment", "Verify a payment") },
      "/api/v2/payments/query/{paymentReference}": { get: verifyOperation("verifyPaymentV2", "Verify a payment (v2 path, same answer)") },
      "/api/v2/payments/{paymentReference}/cancel": {
        post: {
          tags: ["Payments"],
          operationId: "cancelPayment",
          summary: "Cancel a pending payment",
          description:
            "PENDING → CANCELLED; no body. Anything else is 409 S15. No provider voids these charges: cancel stops Owo from crediting, and money that still arrives is added to amountToRefund (payment.refund_due).",
          parameters: [referenceParameter],
          responses: {
            "200": jsonAnswer("The cancelled payment, as verify shows it", "VerifyAnswer", { cancelled: examples.cancelAnswerExample }),
            ...failing("Unauthorized", "NotFound", "Conflict", "TooManyRequests", "ServerError"),
          },
        },
      },
      "/api/v2/payments/{paymentReference}/refunds": {
        post: {
          tags: ["Payments"],
          operationId: "refundPayment",
          summary: "Refund a payment, whole or in part",
          description:
            "Only a payment that is not PENDING or PARTIALLY_PAID. Refundable = amountPaid + amountToRefund − refunds PENDING, NEEDS_ATTENTION or PROCESSED; more is 409 S15, as is a provider that cannot refund (refund it at the provider). No amount: all that is refundable. The same refundReference again answers the first refund again. The answer is always PENDING; the provider pays it back and refund.processed or refund.failed follows. Refunds never change the payment's status, code or amountToRefund; amountRefunded sums the PROCESSED ones.",
          parameters: [referenceParameter],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: ref("RefundRequest"),
                examples: { part: { value: examples.refundRequestExample }, whole: { value: { reason: "Order cancelled" } } },
              },
            },
          },
          responses: {
            "200": jsonAnswer("The refund, accepted", "RefundAnswer", { accepted: examples.refundAnswerExample }),
            ...failing(
              "BadRequest",
              "Unauthorized",
              "NotFound",
              "Conflict",
              "PayloadTooLarge",
              "UnsupportedMediaType",
              "TooManyRequests",
              "ServerError",
            ),
          },
        },
      },
      "/api/v2/payments/{paymentReference}/refunds/{refundReference}": {
        get: {
          tags: ["Payments"],
          operationId: "getRefund",
          summary: "How one refund stands",
          description:
            "The refund under this refundReference on this payment, as it stands now (PENDING, NEEDS_ATTENTION, PROCESSED or FAILED). No such payment or refund: 404 S404.",
          parameters: [referenceParameter, refundReferenceParameter],
          responses: {
            "200": jsonAnswer("The refund", "RefundStatusAnswer", { processed: examples.refundStatusAnswerExample }),
            ...failing("Unauthorized", "NotFound", "TooManyRequests", "ServerError"),
          },
        },
      },
      "/api/v2/payments/{paymentReference}/refunds/{refundReference}/account": {
        post: {
          tags: ["Payments"],
          operationId: "giveRefundAccount",
          summary: "Give the customer's bank account for a refund that needs one",
          description:
            "Only a NEEDS_ATTENTION refund (the provider cannot pay it back without the customer's account: Paystack's needs-attention, common for USSD and transfers); anything else is 409 S15. bankCode is a code from the provider's own bank list (fintech banks such as OPay and Moniepoint included); accountNumber a 10-digit NUBAN, its check digit verified where the bank has a CBN 3-digit code. Owo sends the refund to the provider's retry with that account; once the provider took it the refund is PENDING again and refund.processed or refund.failed follows. The provider refusing the account: 409 S15; not answering: 502 S502, the refund still NEEDS_ATTENTION.",
          parameters: [referenceParameter, refundReferenceParameter],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: ref("RefundAccountRequest"),
                examples: { gtbank: { value: examples.refundAccountRequestExample } },
              },
            },
          },
          responses: {
            "200": jsonAnswer("The refund, PENDING again", "RefundMoveAnswer", { retried: examples.refundAccountAnswerExample }),
            ...failing(
              "BadRequest",
              "Unauthorized",
              "NotFound",
              "Conflict",
              "PayloadTooLarge",
              "UnsupportedMediaType",
              "TooManyRequests",
              "BadGateway",
              "ServerError",
            ),
          },
        },
      },
      "/api/v2/payments/{paymentReference}/refunds/{refundReference}/cancel": {
        post: {
          tags: ["Payments"],
          operationId: "cancelRefund",
          summary: "Give up a refund that needs the customer's account",
          description:
            "NEEDS_ATTENTION → FAILED; no body. Its amount is refundable again; refund.failed follows. Any other refund: 409 S15.",
          parameters: [referenceParameter, refundReferenceParameter],
          responses: {
            "200": jsonAnswer("The refund, FAILED", "RefundMoveAnswer", { givenUp: examples.refundCancelAnswerExample }),
            ...failing("Unauthorized", "NotFound", "Conflict", "TooManyRequests", "ServerError"),
          },
        },
      },
      "/api/v2/sandbox/payments/{paymentReference}/simulate": {
        post: {
          tags: ["Sandbox"],
          operationId: "simulatePayment",
          summary: "Make the sandbox bank pay, under- or over-pay, or decline",
          description:
            'USSD: {"outcome":"pay"} or {"outcome":"decline"}. TRANSFER: {"outcome":"pay"} pays the balance owed, {"outcome":"pay","amount":"700.00"} that amount. Answers once Owo applied the bank\'s notice, with verify\'s code and message (S20 for a part payment).',
          parameters: [referenceParameter],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: ref("SimulateRequest"),
                examples: { pay: { value: { outcome: "pay" } }, partly: { value: { outcome: "pay", amount: "700.00" } } },
              },
            },
          },
          responses: {
            "200": jsonAnswer("The payment after the bank's notice", "SimulateAnswer", {
              USSD: examples.simulateUssdAnswerExample,
              TRANSFER: examples.simulateAnswerExample,
            }),
            ...failing("BadRequest", "Unauthorized", "Forbidden", "NotFound", "UnsupportedMediaType", "TooManyRequests", "ServerError"),
          },
        },
      },
      ...bookPaths({ jsonAnswer, failing, ref }),
      "/api/v2/openapi.json": {
        get: {
          tags: ["Document"],
          operationId: "openApiDocument",
          summary: "This OpenAPI document",
          security: [],
          responses: { "200": { description: "OpenAPI 3.1", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "The encryptedKey from POST /api/v2/encrypt/keys" },
      },
      headers: {
        "X-Request-Id": { description: "Quote it to support", schema: { type: "string" } },
      },
      schemas: {
        KeyPair: jsonSchema(z.object({ key: z.string().min(1).max(200).describe("<secretKey>.<publicKey>, secret first, dot-joined") })),
        InitiateRequest: {
          oneOf: [ref("UssdRequest"), ref("TransferRequest")],
          discriminator: {
            propertyName: "paymentType",
            mapping: { USSD: "#/components/schemas/UssdRequest", TRANSFER: "#/components/schemas/TransferRequest" },
          },
        },
        UssdRequest: initiateBranch("USSD"),
        TransferRequest: initiateBranch("TRANSFER"),
        SimulateRequest: jsonSchema(simulateInput),
        RefundRequest: jsonSchema(refundInput),
        RefundAnswer: jsonSchema(refundAnswer),
        RefundStatusAnswer: jsonSchema(refundStatusAnswer),
        RefundAccountRequest: jsonSchema(refundAccountInput),
        RefundMoveAnswer: jsonSchema(refundMoveAnswer),
        TokenAnswer: jsonSchema(tokenAnswer),
        BanksAnswer: jsonSchema(banksAnswer),
        MerchantBanksAnswer: jsonSchema(merchantBanksAnswer),
        StandardCheckoutRequest: standardCheckoutRequestSchema(),
        StandardCheckoutAnswer: jsonSchema(standardCheckoutAnswer),
        UssdAnswer: jsonSchema(ussdAnswer),
        TransferAnswer: jsonSchema(transferAnswer),
        VerifyAnswer: jsonSchema(verifyAnswer),
        SimulateAnswer: jsonSchema(simulateAnswer),
        ErrorAnswer: jsonSchema(errorAnswer),
        ...bookSchemas,
      },
      responses: failureResponses(),
    },
  };
}

let served: string | null = null;

/** The document as served at GET /api/v2/openapi.json, built once per process. */
export function openApiJson(): string {
  served ??= JSON.stringify(openApiDocument(settings().publicUrl));
  return served;
}
