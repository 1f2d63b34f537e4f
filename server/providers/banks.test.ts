// GET /api/v2/banks over real HTTP: every bank of banks.json, as API.md shows, with no token.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, startOwo, type Owo } from "../testing/harness";
import data from "./banks.json";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

test("every bank of banks.json is listed with bankCode, bankName, ussdCode and supportsUssd, no token needed", async () => {
  const res = await call(owo, "GET", "/api/v2/banks");
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.json), ["status", "data"]);
  assert.equal(res.json.status, "SUCCESS");
  assert.deepEqual(Object.keys(res.json.data), ["code", "message", "banks"]);
  assert.equal(res.json.data.code, "00");
  assert.equal(res.json.data.message, "Successful");
  const expected = data.banks.map((b) => ({
    bankCode: b.bankCode,
    bankName: b.bankName,
    ussdCode: b.ussdCode,
    supportsUssd: b.ussdCode !== null,
  }));
  assert.deepEqual(res.json.data.banks, expected);
  for (const bank of res.json.data.banks) assert.deepEqual(Object.keys(bank), ["bankCode", "bankName", "ussdCode", "supportsUssd"]);
  const gtb = res.json.data.banks.find((b: { bankCode: string }) => b.bankCode === "058");
  assert.deepEqual(gtb, { bankCode: "058", bankName: "Guaranty Trust Bank", ussdCode: "*737#", supportsUssd: true });
  const diamond = res.json.data.banks.find((b: { bankCode: string }) => b.bankCode === "063");
  assert.deepEqual(diamond, { bankCode: "063", bankName: "Access Bank (Diamond)", ussdCode: null, supportsUssd: false });
});

test("the served list is banks.json's, and the sandbox's holding bank is not a customer bank", async () => {
  // server/contract-copies.test.ts holds banks.json to the shared contract's copy where that is present.
  const res = await call(owo, "GET", "/api/v2/banks");
  assert.equal(res.json.data.banks.length, data.banks.length);
  assert.ok(!res.json.data.banks.some((b: { bankCode: string }) => b.bankCode === "000"));
  for (const bank of res.json.data.banks) {
    assert.match(bank.bankCode, /^\d{3}$/);
    if (bank.supportsUssd) assert.match(bank.ussdCode, /^\*\d+#$/, bank.bankName);
  }
  assert.equal(new Set(res.json.data.banks.map((b: { bankCode: string }) => b.bankCode)).size, data.banks.length, "codes are unique");
});

test("a stale or forged token does not get in the way, and only GET is allowed", async () => {
  const res = await call(owo, "GET", "/api/v2/banks", { token: "owo_test_forged" });
  assert.equal(res.status, 200, res.text);
  const post = await call(owo, "POST", "/api/v2/banks", { body: {} });
  assert.equal(post.status, 405);
  assert.equal(post.json.data.code, "S405");
  assert.equal(post.headers.get("allow"), "GET");
});
