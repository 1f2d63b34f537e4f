// The payments part of the OpenAPI document (API.md "Initiate", "Verify", "Lifecycle", "Standard checkout", "Sandbox
// bank"): initiation, standard checkout, verify on both paths, cancel, and the sandbox bank's simulation.
import * as examples from "./examples";
import { failing, jsonAnswer, ref, referenceParameter, requestId } from "./operations";

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

/** A payment from initiation to verify, and the sandbox bank that pays it in test mode. */
export function paymentPaths() {
  return {
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
          ...failing("BadRequest", "Unauthorized", "Conflict", "PayloadTooLarge", "UnsupportedMediaType", "TooManyRequests", "ServerError"),
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
          ...failing("BadRequest", "Unauthorized", "Conflict", "PayloadTooLarge", "UnsupportedMediaType", "TooManyRequests", "ServerError"),
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
  };
}
