// Every initiation rule of API.md, each over both doors: REST's envelope and tRPC's error with apiCode and errors.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, type Owo, type TestMerchant } from "../testing/harness";
import { startInitiating, transferBody, trpcFailure, trpcInput, ussdBody, type Body, type InitiatingMerchant } from "../testing/initiation";
import type { InitiatePaymentInput } from "./initiate-schema";

let owo: Owo, m: TestMerchant, token: string, trpc: InitiatingMerchant["trpc"];
before(async () => ({ owo, merchant: m, token, trpc } = await startInitiating()));
after(() => owo.stop());

type Channel = "USSD" | "TRANSFER";
const bodyFor = (channel: Channel, patch: Body) => (channel === "USSD" ? ussdBody : transferBody)(m.publicKey, patch);
const rest = (body: Body) => call(owo, "POST", "/api/v2/payments/initiates", { token, body });
// The body is deliberately wrong, so it cannot have the input type.
const viaTrpc = (body: Body) => trpc.initiatePayment.mutate(trpcInput(body) as InitiatePaymentInput);

/** Both doors refuse `patch` with `code`, naming exactly `fields`, in the same words. */
async function refused(patch: Body, code: string, fields: string[], channel: Channel = "USSD") {
  const body = bodyFor(channel, patch);
  const label = `${JSON.stringify(patch).slice(0, 80)} (${channel})`;
  const res = await rest(body);
  assert.equal(res.status, 400, `${label}: ${res.text}`);
  assert.deepEqual(Object.keys(res.json), ["status", "data"]);
  assert.equal(res.json.status, "ERROR");
  assert.deepEqual(Object.keys(res.json.data), ["code", "message", "errors"]);
  assert.equal(res.json.data.code, code, `${label}: ${res.text}`);
  assert.equal(typeof res.json.data.message, "string");
  const errors: { field: string; message: string }[] = res.json.data.errors;
  for (const e of errors) {
    assert.deepEqual(Object.keys(e), ["field", "message"]);
    assert.ok(e.message.length > 0);
  }
  assert.deepEqual(
    errors.map((e) => e.field),
    fields,
    label,
  );
  if (code === "S5") assert.equal(res.json.data.message, `Invalid/Missing parameters = ${fields.join(", ")}`);

  const t = await trpcFailure(viaTrpc(body));
  assert.equal(t.code, "BAD_REQUEST", label);
  assert.equal(t.httpStatus, 400);
  assert.equal(t.apiCode, code, label);
  assert.equal(t.message, res.json.data.message, `${label}: both doors say the same`);
  assert.deepEqual(t.errors, errors, `${label}: both doors list the same fields`);
  return res.json.data as { message: string; errors: { field: string; message: string }[] };
}

/** Both doors accept `patch`. */
async function accepted(patch: Body, channel: Channel = "USSD") {
  const res = await rest(bodyFor(channel, patch));
  assert.equal(res.status, 200, `${JSON.stringify(patch).slice(0, 80)}: ${res.text}`);
  const payments = await viaTrpc(bodyFor(channel, patch));
  assert.equal(typeof payments.linkingReference, "string");
  return res.json.data.payments;
}

test("amount: digits with at most 2 decimals, as a string, 100.00 to 1,000,000.00 for USSD → else S2", async () => {
  for (const amount of ["1e3", " 100", "100 ", "100.001", "-5", "0", "0.00", 100, "1,000", "99.99", "1000000.01", "", "abc"]) {
    await refused({ amount }, "S2", ["amount"]);
  }
  for (const amount of ["100", "100.00", "1000000.00"]) await accepted({ amount });
});

test("amount: TRANSFER goes up to 10,000,000.00 → above it S2", async () => {
  assert.equal((await accepted({ amount: "10000000.00" }, "TRANSFER")).amount, "10000000.00");
  await accepted({ amount: "1000000.01" }, "TRANSFER");
  for (const amount of ["10000000.01", "99.99", "0"]) await refused({ amount }, "S2", ["amount"], "TRANSFER");
});

test("currency: only NGN → else S4", async () => {
  for (const currency of ["USD", "ngn", "NGN ", 566]) await refused({ currency }, "S4", ["currency"]);
  await refused({ currency: "USD" }, "S4", ["currency"], "TRANSFER");
});

test("country: only NG → else S6", async () => {
  for (const country of ["GH", "ng", "NGA"]) await refused({ country }, "S6", ["country"]);
});

test("bankCode: unknown, or a bank without USSD → S8 naming GET /api/v2/banks", async () => {
  for (const bankCode of ["999", "44", "0440", "063", "023", "000"]) {
    const data = await refused({ bankCode }, "S8", ["bankCode"]);
    assert.match(data.message, /GET \/api\/v2\/banks/);
  }
});

test("bankCode: sent with TRANSFER → S5; absent or null is fine", async () => {
  for (const bankCode of ["044", "", "063"]) await refused({ bankCode }, "S5", ["bankCode"], "TRANSFER");
  await accepted({ bankCode: null }, "TRANSFER");
  await accepted({}, "TRANSFER");
});

test("a required field that is missing is S5 naming it, whatever its own code would be", async () => {
  for (const field of ["amount", "currency", "country", "bankCode", "fullName", "email"]) {
    await refused({ [field]: undefined }, "S5", [field]);
  }
  for (const field of ["amount", "currency", "bankCode"]) await refused({ [field]: null }, "S5", [field]);
  await refused({ amount: undefined }, "S5", ["amount"], "TRANSFER");
});

test("fullName: 1 to 100 characters after trimming", async () => {
  for (const fullName of ["", "   ", "a".repeat(101), ` ${"a".repeat(101)} `, 42]) await refused({ fullName }, "S5", ["fullName"]);
  await accepted({ fullName: ` ${"a".repeat(100)} ` });
  const hundred = `Ọlá ${"😀".repeat(96)}`;
  assert.equal([...hundred].length, 100);
  assert.ok(hundred.length > 100, "more UTF-16 units than characters");
  await accepted({ fullName: hundred });
  await refused({ fullName: `${hundred}x` }, "S5", ["fullName"]);
});

test("mobileNumber: 7 to 15 digits, optionally after a leading +, kept as the digits", async () => {
  for (const mobileNumber of [
    "123456",
    "1".repeat(16),
    "++2348012345678",
    "234+8012345678",
    "+",
    "0801 234 5678",
    "080-1234-567",
    8012345678,
  ]) {
    await refused({ mobileNumber }, "S5", ["mobileNumber"]);
  }
  const data = await refused({ mobileNumber: "12" }, "S5", ["mobileNumber"]);
  assert.match(data.errors[0]?.message ?? "", /leading \+/);
  for (const mobileNumber of ["1234567", "2348012345678", "1".repeat(15), "+1234567", `+${"1".repeat(15)}`])
    await accepted({ mobileNumber });
  for (const door of ["rest", "trpc"] as const) {
    const body = bodyFor("TRANSFER", { mobileNumber: "+2348012345678" });
    if (door === "rest") assert.equal((await rest(body)).status, 200);
    else await viaTrpc(body);
    const verify = await call(owo, "GET", `/api/v3/payments/query/${body.paymentReference}`, { token });
    assert.equal(verify.json.data.customers.customerMobile, "2348012345678", `${door}: the digits are kept`);
  }
});

test("email: an e-mail address of at most 254 characters", async () => {
  for (const email of ["ada", "ada@", "@example.com", "ada@example", " ada@example.com", `${"a".repeat(64)}@${"b".repeat(186)}.com`]) {
    await refused({ email }, "S5", ["email"]);
  }
  for (const email of ["ada+shop@example.co.uk", "ADA.OBI@EXAMPLE.NG", `${"a".repeat(64)}@${"b".repeat(185)}.com`])
    await accepted({ email });
});

test("paymentReference: 1 to 64 of A-Z a-z 0-9 . _ - with at least one letter or digit", async () => {
  for (const paymentReference of ["a".repeat(65), "ord 1", "ord/1", "ord#1", "ördér", "...", "-_.", "", "ord-1\n"]) {
    await refused({ paymentReference }, "S5", ["paymentReference"]);
  }
  for (const paymentReference of ["a".repeat(64), "A.b_c-9", ".5", "x"]) await accepted({ paymentReference });
});

test("callbackUrl and redirectUrl: absolute http(s) URLs of at most 2048 characters", async () => {
  const long = (n: number) => `https://shop.example.ng/${"a".repeat(n - 24)}`;
  assert.equal(long(2049).length, 2049);
  for (const field of ["callbackUrl", "redirectUrl"]) {
    for (const url of [
      "/owo/callback",
      "shop.example.ng/cb",
      "ftp://shop.example.ng/cb",
      "javascript:alert(1)",
      "https://",
      long(2049),
      " https://shop.example.ng/cb",
      "https://shop.example.ng/a b",
      "http:shop.example.ng",
    ]) {
      await refused({ [field]: url }, "S5", [field]);
    }
    for (const url of [long(2048), "http://127.0.0.1:8080/cb", "HTTPS://Shop.Example.NG/cb?x=1#y"]) await accepted({ [field]: url });
  }
  // Each field's example is of its own kind: a redirect is a page for the customer, not a callback endpoint.
  const both = await refused({ callbackUrl: "shop", redirectUrl: "shop" }, "S5", ["callbackUrl", "redirectUrl"]);
  assert.deepEqual(
    both.errors.map((e) => e.message),
    [
      "must be an absolute http(s) URL, e.g. https://shop.example.ng/owo/callback",
      "must be an absolute http(s) URL, e.g. https://shop.example.ng/thanks",
    ],
  );
});

test("a machine must send both URLs over REST and tRPC: left out, each is S5 naming it", async () => {
  await refused({ callbackUrl: undefined, redirectUrl: undefined }, "S5", ["callbackUrl", "redirectUrl"]);
  await refused({ redirectUrl: undefined }, "S5", ["redirectUrl"], "TRANSFER");
  await refused({ callbackUrl: undefined, email: "nope" }, "S5", ["email", "callbackUrl"]);
});

test("paymentType: USSD or TRANSFER → else S5, and the shared fields are still checked", async () => {
  for (const paymentType of ["CARD", "ussd", "", undefined, null]) await refused({ paymentType }, "S5", ["paymentType"]);
  await refused({ paymentType: "CARD", email: "nope" }, "S5", ["email", "paymentType"]);
  await refused({ paymentType: "CARD", amount: "1e3" }, "S5", ["amount", "paymentType"]);
});

test("three fields at fault → S5 listing exactly those three, in API.md's order", async () => {
  const data = await refused({ email: "nope", mobileNumber: "12", amount: "-1" }, "S5", ["amount", "mobileNumber", "email"]);
  assert.equal(data.message, "Invalid/Missing parameters = amount, mobileNumber, email");
  await refused({ currency: "USD", country: "GH" }, "S5", ["currency", "country"]);
  await refused({ bankCode: "044", amount: "1" }, "S5", ["amount", "bankCode"], "TRANSFER");
});

test("REST: a missing publicKey is an S5 field error listed with the others", async () => {
  for (const publicKey of [undefined, null, 42]) {
    const res = await rest(ussdBody(m.publicKey, { publicKey, email: "nope" }));
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.data.code, "S5");
    assert.deepEqual(
      res.json.data.errors.map((e: { field: string }) => e.field),
      ["publicKey", "email"],
    );
  }
});

test("REST: another merchant's publicKey is 401 S1, before any field is looked at", async () => {
  const other = await createTestMerchant();
  for (const body of [
    ussdBody(other.publicKey),
    ussdBody(other.publicKey, { email: "nope", amount: "0" }),
    { publicKey: other.publicKey },
    { publicKey: "pk_test_nothing" },
  ]) {
    const res = await rest(body);
    assert.equal(res.status, 401, res.text);
    assert.deepEqual(res.json, { status: "ERROR", data: { code: "S1", message: res.json.data.message, errors: [] } });
  }
});

test("a body that is not an object is S5 over both doors", async () => {
  for (const raw of ["[]", '"USSD"', "null", "42"]) {
    const res = await call(owo, "POST", "/api/v2/payments/initiates", { token, raw });
    assert.equal(res.status, 400, raw);
    assert.equal(res.json.data.code, "S5");
  }
  for (const input of [null, "USSD", []]) {
    const t = await trpcFailure(trpc.initiatePayment.mutate(input as unknown as InitiatePaymentInput));
    assert.equal(t.apiCode, "S5", JSON.stringify(input));
    assert.equal(t.code, "BAD_REQUEST");
  }
});

test("fields the contract does not know change nothing and are not kept", async () => {
  const body = ussdBody(m.publicKey, {
    status: "SUCCESSFUL",
    amountPaid: "999",
    amountToRefund: "5",
    mode: "live",
    linkingReference: "OWO1",
    productId: "Foods",
  });
  const res = await rest(body);
  assert.equal(res.status, 200, res.text);
  assert.notEqual(res.json.data.payments.linkingReference, "OWO1");
  const verify = await call(owo, "GET", `/api/v3/payments/query/${body.paymentReference}`, { token });
  assert.equal(verify.status, 200, verify.text);
  const p = verify.json.data.payments;
  assert.equal(verify.json.data.code, "S20");
  assert.equal(p.status, "PENDING");
  assert.equal(p.amountPaid, "0.00");
  assert.equal(p.amountToRefund, "0.00");
  assert.equal(p.mode, "test");
  assert.equal(p.amount, "1500.00");
  const trpcBody = ussdBody(m.publicKey, { status: "SUCCESSFUL", amountPaid: "999" });
  await viaTrpc(trpcBody);
  const viaTrpcVerify = await call(owo, "GET", `/api/v3/payments/query/${trpcBody.paymentReference}`, { token });
  assert.equal(viaTrpcVerify.json.data.payments.status, "PENDING");
  assert.equal(viaTrpcVerify.json.data.payments.amountPaid, "0.00");
});
