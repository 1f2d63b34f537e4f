import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_ATTEMPTS, MINIMUM_SCHEDULE_MS, retryDelayMs } from "./backoff";

const HOUR = 3_600_000;
const low = () => 0;
const middle = () => 0.5;
const high = () => 0.999999;

function schedule(scale: number, random: () => number): number[] {
  const delays: number[] = [];
  for (let attempt = 1; ; attempt++) {
    const delay = retryDelayMs(attempt, scale, random);
    if (delay === null) return delays;
    delays.push(delay);
  }
}

describe("retryDelayMs", () => {
  it("starts about 30 s, 2 min, 10 min, 30 min, 1 h, then grows to a 12 h cap", () => {
    const delays = schedule(1, middle);
    assert.deepEqual(delays.slice(0, 5), [30_000, 120_000, 600_000, 1_800_000, HOUR]);
    for (let i = 1; i < delays.length; i++) assert.ok(delays[i]! >= delays[i - 1]!);
    assert.equal(Math.max(...delays), 12 * HOUR);
  });

  it("gives up after MAX_ATTEMPTS attempts", () => {
    assert.equal(schedule(1, middle).length, MAX_ATTEMPTS - 1);
    assert.equal(retryDelayMs(MAX_ATTEMPTS - 1, 1, middle) !== null, true);
    assert.equal(retryDelayMs(MAX_ATTEMPTS, 1, middle), null);
    assert.equal(retryDelayMs(MAX_ATTEMPTS + 10, 1, middle), null);
  });

  it("covers at least 72 hours even with every wait jittered low", () => {
    const total = schedule(1, low).reduce((a, b) => a + b, 0);
    assert.ok(total >= 72 * HOUR, `only ${total / HOUR} h`);
    assert.ok(Math.abs(total - MINIMUM_SCHEDULE_MS) < 100);
  });

  it("jitters within ±20%", () => {
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const nominal = retryDelayMs(attempt, 1, middle)!;
      assert.equal(retryDelayMs(attempt, 1, low), Math.round(nominal * 0.8));
      assert.ok(retryDelayMs(attempt, 1, high)! <= nominal * 1.2);
      for (let i = 0; i < 50; i++) {
        const d = retryDelayMs(attempt, 1)!;
        assert.ok(d >= nominal * 0.8 - 1 && d <= nominal * 1.2 + 1);
      }
    }
  });

  it("multiplies by scale", () => {
    const full = schedule(1, middle);
    const small = schedule(0.001, middle);
    assert.equal(small.length, full.length);
    full.forEach((d, i) => assert.equal(small[i], Math.round(d * 0.001)));
    assert.equal(retryDelayMs(1, 2, middle), 60_000);
  });

  it("refuses nonsense input", () => {
    assert.throws(() => retryDelayMs(0, 1), RangeError);
    assert.throws(() => retryDelayMs(1.5, 1), RangeError);
    assert.throws(() => retryDelayMs(1, -1), RangeError);
    assert.throws(() => retryDelayMs(1, Number.NaN), RangeError);
  });
});
