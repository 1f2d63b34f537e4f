// The sandbox bank's schedule against API.md "Fees"' own examples, to the kobo.
import assert from "node:assert/strict";
import { test } from "node:test";
import { feeFor, SANDBOX_SCHEDULE } from "./fees";

test("the sandbox schedule charges API.md's examples exactly", () => {
  const cases: [number, number][] = [
    [100_300, 1_505],
    [150_000, 2_250],
    [250_000, 13_750],
    [1_000_000, 25_000],
    [20_000_000, 200_000],
    [100_000, 1_500],
    [200_000, 3_000],
    [249_999, 3_750],
    [1, 0],
    [34, 1],
    [33, 0],
  ];
  for (const [amount, fee] of cases) assert.equal(feeFor(SANDBOX_SCHEDULE, amount), fee, `fee on ${amount} kobo`);
});

test("a huge amount is charged without losing a kobo to floats", () => {
  const noCap = { ...SANDBOX_SCHEDULE, capKobo: null };
  assert.equal(feeFor(noCap, 99_999_999_999_999), 1_500_000_000_000 + 10_000);
});
