// The OpenAPI 3.1 document of the public REST surface, generated from the zod schemas the doors themselves use: each
// part of the surface in its own file (*-paths.ts), assembled here with the components they refer to.
import { z } from "zod";
import { simulateInput } from "../payments/simulate";
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
import { accountPaths } from "./account-paths";
import { ledgerPaths, ledgerSchemas } from "./ledger-paths";
import { failureResponses, ref } from "./operations";
import { paymentPaths } from "./payment-paths";
import { reconciliationPaths, reconciliationSchemas } from "./reconciliation-paths";
import { refundPaths } from "./refund-paths";
import { initiateBranch, jsonSchema, standardCheckoutRequestSchema } from "./request-schemas";
import { settlementPaths, settlementSchemas } from "./settlement-paths";

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
      { name: "Books", description: "Your balances, the ledger's entries, fee quotes" },
      { name: "Settlements", description: "Payouts from the providers, with their lines" },
      { name: "Reconciliation", description: "The period report, exceptions, bank statements" },
      { name: "Sandbox", description: "The sandbox bank, test keys only" },
      { name: "Document", description: "This document" },
    ],
    security: [{ bearer: [] }],
    paths: {
      ...accountPaths(),
      ...paymentPaths(),
      ...refundPaths(),
      ...settlementPaths(),
      ...reconciliationPaths(),
      ...ledgerPaths(),
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
        ...settlementSchemas,
        ...reconciliationSchemas,
        ...ledgerSchemas,
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
