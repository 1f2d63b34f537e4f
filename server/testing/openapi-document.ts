// The served OpenAPI document for the tests that hold Owo to it (server/openapi/document.test.ts, answers.test.ts): an
// Owo with one merchant, the document it serves (as served and dereferenced), and schema checks that close every
// object, so that an answer with an undocumented field fails.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { dereference } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { call, createTestMerchant, startOwo, tokenFor, type Answer, type Owo, type TestMerchant } from "./harness";

export type SchemaNode = { [key: string]: unknown };
type Media = { schema: SchemaNode; example?: unknown; examples?: Record<string, { value: unknown }> };
export type Operation = {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};
export type ServedDocument = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Operation>> };

export type DocumentSuite = {
  /** Set once the file's `before` ran; read inside the tests. */
  owo: Owo;
  merchant: TestMerchant;
  token: string;
  served: ServedDocument;
  resolved: ServedDocument;
  /** Holds a real answer to the document: its status must be documented for that operation, and its body must fit. */
  fits: (answer: Answer, path: string, method: string) => void;
};

/** An Owo with a merchant and its token, and the document it serves, started before the file's tests, stopped after. */
export function documentSuite(): DocumentSuite {
  // The rest is filled before the first test, as node:test runs `before` first.
  const suite = { fits: (answer: Answer, path: string, method: string) => fits(suite.resolved, answer, path, method) } as DocumentSuite;
  before(async () => {
    const owo = await startOwo();
    const merchant = await createTestMerchant("OpenAPI Store");
    const res = await call(owo, "GET", "/api/v2/openapi.json");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    const resolved = (await dereference(structuredClone(res.json))) as ServedDocument;
    Object.assign(suite, { owo, merchant, token: await tokenFor(owo, merchant), served: res.json, resolved });
  });
  after(() => suite.owo?.stop());
  return suite;
}

/** The published schemas leave objects open (v2 may add fields); tests close them so an undocumented field fails. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== "object" || schema === null) return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === "examples" || k === "example" ? v : closed(v)]));
  if ("properties" in copy && !("additionalProperties" in copy)) copy.additionalProperties = false;
  return copy;
}

export const ajv = new Ajv2020({ strict: true, allErrors: true, strictTuples: false, keywords: ["discriminator", "example"] });
addFormats(ajv);

export function check(schema: SchemaNode, value: unknown, what: string): void {
  const validator = ajv.compile(closed(schema) as SchemaNode);
  assert.ok(validator(value), `${what}: ${ajv.errorsText(validator.errors)}\n${JSON.stringify(value)}`);
}

function fits(document: ServedDocument, answer: Answer, path: string, method: string): void {
  const media = document.paths[path]?.[method]?.responses[String(answer.status)]?.content?.["application/json"];
  assert.ok(media, `the document has no ${answer.status} answer for ${method.toUpperCase()} ${path}`);
  check(media.schema, answer.json, `${method.toUpperCase()} ${path} → ${answer.status}`);
}
