// The refunds part of the OpenAPI document (API.md "Refunds"): asking for one, its state, the customer's account a
// provider needs for it, and giving it up.
import * as examples from "./examples";
import { failing, jsonAnswer, ref, referenceParameter, refundReferenceParameter } from "./operations";

/** How a refund's POST with a JSON body is refused: asking for one and giving the customer's account alike. */
const refundBodyRefused = [
  "BadRequest",
  "Unauthorized",
  "NotFound",
  "Conflict",
  "PayloadTooLarge",
  "UnsupportedMediaType",
  "TooManyRequests",
] as const;

/** A refund of a payment, from asking to paid back or given up. */
export function refundPaths() {
  return {
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
          ...failing(...refundBodyRefused, "ServerError"),
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
          ...failing(...refundBodyRefused, "BadGateway", "ServerError"),
        },
      },
    },
    "/api/v2/payments/{paymentReference}/refunds/{refundReference}/cancel": {
      post: {
        tags: ["Payments"],
        operationId: "cancelRefund",
        summary: "Give up a refund that needs the customer's account",
        description: "NEEDS_ATTENTION → FAILED; no body. Its amount is refundable again; refund.failed follows. Any other refund: 409 S15.",
        parameters: [referenceParameter, refundReferenceParameter],
        responses: {
          "200": jsonAnswer("The refund, FAILED", "RefundMoveAnswer", { givenUp: examples.refundCancelAnswerExample }),
          ...failing("Unauthorized", "NotFound", "Conflict", "TooManyRequests", "ServerError"),
        },
      },
    },
  };
}
