// A merchant's rate limit (API.md "Limits": OWO_RATE_LIMIT_RPS, OWO_RATE_LIMIT_BURST per merchant and mode) is the
// deployment's, not each instance's: three instances behind a balancer grant the budget once, not three times.
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { after, before, test } from "node:test";
import { startFleet, type Fleet } from "../testing/fleet";
import { call, createTestMerchant, tokenFor } from "../testing/harness";

const RPS = 1;
const BURST = 10;

let fleet: Fleet;
before(async () => {
  fleet = await startFleet({ apps: 3, workers: 0, appEnv: { OWO_RATE_LIMIT_RPS: String(RPS), OWO_RATE_LIMIT_BURST: String(BURST) } });
});
after(() => fleet?.stop());

test(
  "60 requests of one merchant spread over three instances: the burst is granted once across them, the rest is 429 with Retry-After",
  { skip: "rate limits are per process: server/limits/rate-limits.ts keeps each instance's TokenBuckets in memory (globalThis.__owoLimiters), so three instances grant three bursts" },
  async (t) => {
    const m = await createTestMerchant();
    const token = await tokenFor(fleet.next(), m);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 60 }, () => call(fleet.next(), "GET", `/api/v2/banks/merchant/${m.publicKey}`, { token })));
    const seconds = (performance.now() - started) / 1000;
    const accepted = answers.filter((a) => a.status === 200).length;
    t.diagnostic(`${accepted} of 60 accepted within ${seconds.toFixed(2)} s (burst ${BURST}, ${RPS}/s)`);
    for (const a of answers) {
      assert.ok(a.status === 200 || a.status === 429, a.text);
      assert.equal(a.headers.get("x-ratelimit-limit"), String(BURST));
      if (a.status === 429) assert.ok(Number(a.headers.get("retry-after")) >= 1);
    }
    // The budget: the burst, and what refilled while the requests were being answered (plus one for a refill in flight).
    assert.ok(accepted >= BURST, `only ${accepted} accepted: the burst is ${BURST}`);
    assert.ok(accepted <= BURST + Math.ceil(seconds * RPS) + 1, `${accepted} accepted, more than one budget of ${BURST} + ${RPS}/s`);
  },
);
