// Identifiers are secrets' neighbours (payment links, invites): every character must be equally likely.
import assert from "node:assert/strict";
import { test } from "node:test";
import { newId, newOrderedId } from "./identifiers";

test("newId: prefix, length and alphabet", () => {
  const id = newId("pay", 20);
  assert.match(id, /^pay_[0-9a-z]{20}$/);
  assert.match(newId("lnk", 8), /^lnk_[0-9a-z]{8}$/);
});

test("newId: the 36 characters come equally often (chi-square over a million draws)", () => {
  const counts = new Map<string, number>();
  const ids = 50_000;
  for (let i = 0; i < ids; i++) {
    for (const ch of newId("x", 20).slice(2)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  assert.equal(counts.size, 36);
  const expected = (ids * 20) / 36;
  let chiSquare = 0;
  for (const n of counts.values()) chiSquare += (n - expected) ** 2 / expected;
  // 35 degrees of freedom: a fair source exceeds 100 about once in ten million runs. `byte % 36` scores ~1,900.
  assert.ok(chiSquare < 100, `chi-square ${chiSquare.toFixed(1)}: some characters come more often than others`);
});

test("newOrderedId: 20 characters after the prefix, and an id made later sorts after one made earlier", (t) => {
  // The machine's time is moved, not slept through: every later id is made in the one millisecond after the first.
  t.mock.timers.enable({ apis: ["Date"], now: Date.now() });
  const first = newOrderedId("led");
  assert.match(first, /^led_[0-9a-z]{20}$/);
  t.mock.timers.tick(1);
  const later = Array.from({ length: 1000 }, () => newOrderedId("led"));
  assert.ok(
    later.every((id) => id > first),
    "an id made later sorts first",
  );
  assert.equal(new Set(later).size, later.length, "ids made in the same millisecond repeat");
});
