// The posting cost's arithmetic (issue 23): the pairs the credit legs or slices make, their median and the interval it lies in.
import assert from "node:assert/strict";
import { test } from "node:test";
import { creditLegOrder } from "./books";
import { medianInterval, pairReadings, postingCostVerdict, type CreditLeg, type PostingCost } from "./posting-cost";

test("the posting cost is the median of neighbouring on/off pairs, and a bound inside the median's interval is left open", () => {
  const leg = (posting: boolean, rps: number, cpuMs: number): CreditLeg => ({ posting, rps, cpuMs, load: 0.5 });
  // on, off, off, on, on, off, off, on: pairs 1–2, 3–4, 5–6, 7–8.
  const legs = [leg(true, 950, 2.1), leg(false, 1000, 2), leg(false, 1000, 2), leg(true, 900, 2.2)];
  const steady: PostingCost = { kind: "posting-cost", scenario: "books: sandbox credit (REST)", legSeconds: 8, legs };
  const rates = pairReadings(legs).map((p) => Math.round(p.rate * 100));
  assert.deepEqual(rates, [5, 10]);
  const met = postingCostVerdict(steady, 0.1);
  assert.equal(met?.met, true);
  assert.match(
    met?.measured ?? "",
    /^median 7.5 % slower over 2 pairs of 8 s legs, 95 % interval 5.0 % to 10.0 % \(pairs 5.0 % to 10.0 %\); CPU a credit \(Owo \+ database\) 2.15 vs 2.00 ms, \+7.5 %/,
  );
  const noisy = postingCostVerdict(
    { ...steady, legs: [...legs, leg(true, 700, 2.8), leg(false, 1000, 2), leg(false, 1000, 2), leg(true, 980, 2)] },
    0.1,
  );
  assert.equal(noisy?.met, null);
  assert.match(noisy?.measured ?? "", /pairs 2.0 % to 30.0 %.*inside its own noise: the median's interval holds 10.0 %/);
  const over = postingCostVerdict({ ...steady, legs: [leg(true, 800, 2.5), leg(false, 1000, 2)] }, 0.1);
  assert.equal(over?.met, false);
  assert.equal(postingCostVerdict({ ...steady, legs: [leg(true, 800, 2.5)] }, 0.1), null);
});

test("over enough pairs the median's interval leaves out the stray ones: two pairs of twelve past the bound do not hide a cost within it", () => {
  const leg = (posting: boolean, rps: number): CreditLeg => ({ posting, rps, cpuMs: 2, load: 1 });
  const pairsCosting = (percents: number[]) => percents.flatMap((p) => [leg(true, 100 - p), leg(false, 100)]);
  const cost = (percents: number[]) => ({ kind: "posting-cost" as const, scenario: "credit", legSeconds: 8, legs: pairsCosting(percents) });
  // Sorted (−9, 2, 3, 3, 4, 4, 5, 6, 6, 7, 18, 21), the 3rd and the 10th of twelve bound the median at 96 %: 3 % and 7 %.
  const within = postingCostVerdict(cost([4, 21, 2, 6, 3, 7, 5, -9, 3, 6, 18, 4]), 0.1);
  assert.equal(within?.met, true);
  assert.match(
    within?.measured ?? "",
    /median 4.5 % slower over 12 pairs of 8 s legs, 95 % interval 3.0 % to 7.0 % \(pairs -9.0 % to 21.0 %\)/,
  );
  const above = postingCostVerdict(cost([14, 12, -3, 16, 13, 15, 11, 30, 12, 14, 2, 13]), 0.1);
  assert.equal(above?.met, false);
  const astride = postingCostVerdict(cost([4, 21, 2, 12, 3, 14, 5, 11, 13, 6, 18, 4]), 0.1);
  assert.equal(astride?.met, null);
  assert.deepEqual(medianInterval([3, 1, 2]), [1, 3]);
  assert.deepEqual(medianInterval(Array.from({ length: 24 }, (_, i) => i + 1)), [7, 18]);
  assert.equal(medianInterval([]), null);
});

test("--pairs sets how many on/off pairs the credit legs make, each pair's order the reverse of the one before", () => {
  const show = (order: boolean[]) => order.map((on) => (on ? "on" : "off")).join(" ");
  assert.equal(show(creditLegOrder(4)), "on off off on on off off on");
  assert.equal(show(creditLegOrder(1)), "on off");
  assert.equal(show(creditLegOrder(3)), "on off off on on off");
  const legs = creditLegOrder(12).map((posting): CreditLeg => ({ posting, rps: posting ? 90 : 100, cpuMs: 1, load: 1 }));
  assert.equal(pairReadings(legs).length, 12);
});
