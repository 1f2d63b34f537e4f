import assert from "node:assert/strict";
import { test } from "node:test";
import { displayNaira, formatKobo, parseAmount, parseNairaAnswer, typedAmount } from "./money";

test("amounts parse from strings into integer kobo", () => {
  assert.equal(parseAmount("1500"), 150000);
  assert.equal(parseAmount("1500.5"), 150050);
  assert.equal(parseAmount("1500.50"), 150050);
  assert.equal(parseAmount("0.01"), 1);
  assert.equal(parseAmount("100"), 10000);
  assert.equal(parseAmount("10000000.00"), 1000000000);
  // 0.1 + 0.2 style float drift cannot happen: the fraction is read as digits
  assert.equal(parseAmount("19.99"), 1999);
  assert.equal(parseAmount("0100"), 10000);
});

test("anything that is not digits with at most two decimals is refused", () => {
  for (const bad of [
    "1e3",
    " 100",
    "100 ",
    "100.001",
    "-5",
    "+5",
    "1,000",
    "",
    ".5",
    "5.",
    "0x10",
    "1234567890123",
    "١٠٠",
    "Infinity",
    "NaN",
  ]) {
    assert.equal(parseAmount(bad), null, JSON.stringify(bad));
  }
  for (const bad of [100, null, undefined, {}, ["100"], true]) assert.equal(parseAmount(bad), null);
});

test("kobo format back to two decimals", () => {
  assert.equal(formatKobo(150000), "1500.00");
  assert.equal(formatKobo(1), "0.01");
  assert.equal(formatKobo(0), "0.00");
  assert.equal(formatKobo(-250), "-2.50");
  assert.equal(displayNaira(123456789), "₦1,234,567.89");
  assert.equal(displayNaira(-123456789), "−₦1,234,567.89"); // a provider balance it overpaid, never "₦-1,234,567.89"
});

test("naira a provider answers as a JSON number or string become kobo through their decimal text", () => {
  assert.equal(parseNairaAnswer(1500), 150000);
  assert.equal(parseNairaAnswer(7500.5), 750050);
  assert.equal(parseNairaAnswer(21.3), 2130);
  assert.equal(parseNairaAnswer(0.07), 7);
  assert.equal(parseNairaAnswer("1500.00"), 150000);
  for (const bad of [1.005, -1, Number.NaN, Infinity, 1e21, "1e3", null, undefined, {}])
    assert.equal(parseNairaAnswer(bad), null, String(bad));
});

test("an amount typed as people write it reads as the wire's; anything else is left for parseAmount to refuse", () => {
  assert.equal(typedAmount(" 12,345.67 "), "12345.67");
  assert.equal(parseAmount(typedAmount("1,000")), 100000);
  assert.equal(parseAmount(typedAmount("1.000,50")), null);
  assert.equal(typedAmount("₦500"), "₦500");
});
