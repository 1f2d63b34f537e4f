// The access and banks part of the OpenAPI document (API.md "Access token", "Banks", "Merchant banks").
import * as examples from "./examples";
import { failing, jsonAnswer, ref } from "./operations";

/** Buying a bearer token with the key pair; the banks and what each channel needs. */
export function accountPaths() {
  return {
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
  };
}
