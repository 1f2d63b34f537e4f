// The polling loop behind the callback worker and the mailer: woken work is never left waiting for the timer.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pollingLoop, type PollingLoop } from "./recurring";

const A_MINUTE = 60_000;

test("a wake while a tick runs is kept: the next tick follows at once, not after the poll interval", { timeout: 5_000 }, async () => {
  let ticks = 0;
  let secondTick!: () => void;
  const second = new Promise<void>((resolve) => (secondTick = resolve));
  let loop: PollingLoop | undefined = undefined;
  loop = pollingLoop(A_MINUTE, "test loop", async () => {
    ticks++;
    if (ticks === 1) {
      await new Promise((r) => setTimeout(r, 10));
      loop?.wake(); // a slot freed while this tick was still claiming
    } else secondTick();
  });
  await second;
  await loop.stop();
  assert.equal(ticks, 2, "woken once, ticked once more, then slept until stopped");
});

test("a wake while the loop sleeps ends the sleep; stop ends it without waiting for the timer", { timeout: 5_000 }, async () => {
  let ticks = 0;
  const loop = pollingLoop(A_MINUTE, "test loop", () => {
    ticks++;
  });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(ticks, 1);
  loop.wake();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(ticks, 2);
  await loop.stop();
  assert.equal(ticks, 2, "stopping ran no tick of its own");
});
