// Values written into a statement's text (db/postgres-literals.ts): a number that is not whole, or out of its type's
// range, is refused before any text is made, and strings are quoted so that PostgreSQL reads back exactly them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bigintArrayLiteral, bigintLiteral, integerLiteral, textArrayLiteral, textLiteral, UnwritableValue } from "./postgres-literals";

test("numbers are written only when whole and within their type", () => {
  assert.equal(bigintLiteral(-9_007_199_254_740_991), "-9007199254740991::bigint");
  assert.equal(bigintLiteral(null), "null::bigint");
  assert.equal(integerLiteral(-2_147_483_648), "-2147483648::integer");
  for (const bad of [1.5, Number.NaN, Infinity, 2 ** 53]) assert.throws(() => bigintLiteral(bad), UnwritableValue, `${bad} as bigint`);
  assert.throws(() => integerLiteral(2_147_483_648), UnwritableValue);
  assert.throws(() => bigintArrayLiteral([1, 0.1]), UnwritableValue);
});

test("strings are quoted, their quotes doubled and their backslashes escaped", () => {
  assert.equal(textLiteral("it's"), "'it''s'::text");
  assert.equal(textLiteral("a\\b"), " E'a\\\\b'::text");
  assert.equal(textLiteral(null), "null::text");
  assert.equal(textArrayLiteral(["sales", "provider:x'y"]), "array['sales', 'provider:x''y']::text[]");
  assert.equal(textArrayLiteral([]), "array[]::text[]");
});
