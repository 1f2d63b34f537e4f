import assert from "node:assert/strict";
import { test } from "node:test";
import data from "./banks.json";
import { isValidNuban, nubanFor } from "./nuban";

test("the two vectors published in banks.json", () => {
  for (const v of [data.nubanCheck.example, data.nubanCheck.example2]) {
    assert.equal(nubanFor(v.bankCode, v.serial), v.accountNumber);
    assert.ok(isValidNuban(v.bankCode, v.accountNumber));
  }
});

test("a wrong check digit, length or bank is refused", () => {
  assert.equal(isValidNuban("000", "1234567894"), false);
  assert.equal(isValidNuban("000", "123456789"), false);
  assert.equal(isValidNuban("058", "1234567895"), false);
});
