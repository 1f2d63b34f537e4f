// The Paystack double's routes are Paystack's OpenAPI templates, each written once: every one answers at its
// documented path, and the GET routes hold their query to the document as the POST routes hold their bodies (List
// Refunds, Fetch Refund, Verify and Balance had been left unchecked).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { spawnDouble, type DoubleProcess } from "../../testing/processes";

const SECRET_KEY = "sk_test_paystack_routes";
let double: DoubleProcess;
before(async () => {
  double = await spawnDouble("paystack", { "secret-key": SECRET_KEY });
});
after(() => double.stop());

const get = async (path: string) => {
  const res = await fetch(`${double.url}${path}`, { headers: { authorization: `Bearer ${SECRET_KEY}` } });
  return { status: res.status, body: (await res.json()) as { status: boolean; message: string } };
};

test("List Refunds holds perPage and page to integers, as Paystack's document types them", async (t) => {
  const { openApiDocument } = (await (await fetch(`${double.url}/_double`)).json()) as { openApiDocument: string | null };
  if (!openApiDocument) return t.skip("../shared/providers/paystack-openapi.yaml is absent: nothing to hold the parameters to");
  const many = await get("/refund?perPage=many");
  assert.equal(many.status, 400);
  assert.match(many.body.message, /^Invalid request: query parameter perPage must be integer/);
  assert.equal((await get("/refund?page=first")).status, 400);
  assert.equal((await get("/refund?perPage=5&page=1")).status, 200);
});

test("each documented GET answers at its template's path, and never without the secret key", async () => {
  for (const path of ["/refund", "/refund/123", "/transaction/verify/no-such-reference", "/balance", "/bank", "/dispute", "/settlement"]) {
    const answer = await get(path);
    assert.notEqual(answer.status, 400, `${path}: ${answer.body.message}`);
    assert.ok([200, 404].includes(answer.status), `${path} answered ${answer.status}`);
    const bare = await fetch(`${double.url}${path}`);
    assert.equal(bare.status, 401, `${path} without the key`);
  }
});
