// Rate limits (API.md "Limits": OWO_RATE_LIMIT_RPS and OWO_RATE_LIMIT_BURST per merchant and mode,
// OWO_IP_RATE_LIMIT_PER_MIN per client IP) are the deployment's, not each instance's: three instances behind a
// balancer grant a budget once, not three times.
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { test } from "node:test";
import { fleetDialect, startFleet } from "../testing/fleet";
import { call, createTestMerchant, tokenFor } from "../testing/harness";

const RPS = 1;
const BURST = 10;
const IP_PER_MIN = 12;
// A fleet on one SQLite file (OWO_SCALE_DB=sqlite) is not a supported deployment: there each process keeps its own budgets.
const skip = fleetDialect() === "sqlite" ? "on SQLite, one process per file, budgets live in the process's memory" : false;

test(
  "requests spread over three instances: a merchant's burst and a client IP's minute are granted once across them, the rest is 429",
  { skip },
  async (t) => {
    const limits = { OWO_RATE_LIMIT_RPS: String(RPS), OWO_RATE_LIMIT_BURST: String(BURST), OWO_IP_RATE_LIMIT_PER_MIN: String(IP_PER_MIN) };
    const fleet = await startFleet({ apps: 3, workers: 0, appEnv: limits });
    t.after(() => fleet.stop());
    const m = await createTestMerchant();
    const token = await tokenFor(fleet.next(), m);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => call(fleet.next(), "GET", `/api/v2/banks/merchant/${m.publicKey}`, { token })),
    );
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

    // The IP's budget, on the door that takes a key pair (a wrong one: refused, but counted like any other).
    const tries = await Promise.all(
      Array.from({ length: 3 * IP_PER_MIN }, () =>
        call(fleet.next(), "POST", "/api/v2/encrypt/keys", { body: { key: "sk_test_x.pk_test_y" } }),
      ),
    );
    const admitted = tries.filter((a) => a.status !== 429).length;
    t.diagnostic(`${admitted} of ${tries.length} key exchanges from one IP admitted (${IP_PER_MIN} a minute)`);
    assert.ok(admitted <= IP_PER_MIN + 1, `${admitted} admitted from one IP, more than its ${IP_PER_MIN} a minute`);
  },
);

test("a burst of 100 is taken a few tokens at a time by each instance, and still granted once across them", { skip }, async (t) => {
  const burst = 100;
  const fleet = await startFleet({
    apps: 3,
    workers: 0,
    appEnv: { OWO_RATE_LIMIT_RPS: "1", OWO_RATE_LIMIT_BURST: String(burst), OWO_IP_RATE_LIMIT_PER_MIN: "0" },
  });
  t.after(() => fleet.stop());
  const m = await createTestMerchant();
  const token = await tokenFor(fleet.next(), m);
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 300 }, () => call(fleet.next(), "GET", `/api/v2/banks/merchant/${m.publicKey}`, { token })),
  );
  const seconds = (performance.now() - started) / 1000;
  const accepted = answers.filter((a) => a.status === 200).length;
  t.diagnostic(`${accepted} of 300 accepted within ${seconds.toFixed(2)} s (burst ${burst}, 1/s, 5 tokens a statement)`);
  assert.ok(answers.every((a) => a.status === 200 || a.status === 429));
  assert.ok(accepted <= burst + Math.ceil(seconds) + 1, `${accepted} accepted, more than one budget of ${burst} + 1/s`);
  // Tokens an instance took ahead and had no request left to spend on: at most 4 each.
  assert.ok(accepted >= burst - 3 * 4, `only ${accepted} accepted of a burst of ${burst}`);
});
