// The served OpenAPI document: a valid 3.1 document naming this server, every public REST route, its own examples fit
// it, and the published sample requests fit it (answers.test.ts holds the running server's real answers to it).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileErrors, validate } from "@readme/openapi-parser";
import { exampleText, transferBody, ussdBody } from "../testing/initiation";
import { ajv, check, documentSuite } from "../testing/openapi-document";

const doc = documentSuite();

describe("GET /api/v2/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document naming this server", async () => {
    const result = await validate(structuredClone(doc.served) as unknown as Parameters<typeof validate>[0]);
    assert.ok(result.valid, result.valid ? "" : compileErrors(result));
    assert.equal(doc.served.openapi, "3.1.0");
    assert.deepEqual(doc.served.servers, [{ url: doc.owo.url }]);
    assert.ok(
      !Object.keys(doc.served.paths).some((p) => p.includes("providers")),
      "the bank's inbound notice door stays out of the public document",
    );
  });

  it("documents every public REST route", () => {
    assert.deepEqual(Object.keys(doc.served.paths).sort(), [
      "/api/v2/balances",
      "/api/v2/bank-statements",
      "/api/v2/banks",
      "/api/v2/banks/merchant/{publicKey}",
      "/api/v2/encrypt/keys",
      "/api/v2/fees/quote",
      "/api/v2/ledger/entries",
      "/api/v2/openapi.json",
      "/api/v2/payments",
      "/api/v2/payments/initiates",
      "/api/v2/payments/query/{paymentReference}",
      "/api/v2/payments/{paymentReference}/cancel",
      "/api/v2/payments/{paymentReference}/refunds",
      "/api/v2/payments/{paymentReference}/refunds/{refundReference}",
      "/api/v2/payments/{paymentReference}/refunds/{refundReference}/account",
      "/api/v2/payments/{paymentReference}/refunds/{refundReference}/cancel",
      "/api/v2/reconciliation",
      "/api/v2/reconciliation/exceptions/{exceptionId}/resolve",
      "/api/v2/sandbox/payments/{paymentReference}/simulate",
      "/api/v2/sandbox/settlements",
      "/api/v2/settlements",
      "/api/v2/settlements/{settlementId}",
      "/api/v3/payments/query/{paymentReference}",
    ]);
  });

  it("has examples that fit its own schemas", () => {
    let seen = 0;
    for (const [path, methods] of Object.entries(doc.resolved.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const media = [
          op.requestBody?.content["application/json"],
          ...Object.values(op.responses).map((r) => r.content?.["application/json"]),
        ];
        for (const m of media) {
          if (!m) continue;
          for (const [name, example] of Object.entries(m.examples ?? {})) {
            check(m.schema, example.value, `${method} ${path} example ${name}`);
            seen++;
          }
        }
      }
    }
    assert.ok(seen >= 20, `only ${seen} examples were checked`);
  });

  it("takes the published sample requests and rejects a USSD body without bankCode", () => {
    const schema = doc.resolved.paths["/api/v2/payments/initiates"]?.post?.requestBody?.content["application/json"]?.schema;
    assert.ok(schema);
    const validator = ajv.compile(schema);
    const fill = {
      publicKey: doc.merchant.publicKey,
      callbackUrl: "https://shop.example.ng/cb",
      redirectUrl: "https://shop.example.ng/thanks",
    };
    for (const sample of ["initiate-ussd", "initiate-transfer"] as const) {
      assert.ok(validator(JSON.parse(exampleText(sample, fill))), `${sample}: ${ajv.errorsText(validator.errors)}`);
    }
    const { bankCode: _bank, ...noBank } = ussdBody(doc.merchant.publicKey);
    assert.equal(validator(noBank), false);
    assert.equal(validator({ ...transferBody(doc.merchant.publicKey), bankCode: "058" }), false);
  });
});
