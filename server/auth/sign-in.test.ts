// The lockout's arithmetic: when it starts, how it doubles, when it forgets, and that it keeps no address in clear.
// (The attack itself, over HTTP against next-auth, is e2e/sign-in-attacks.spec.ts.)
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { signInWithPassword, SignInLocked } from "./sign-in";
import { moveClock } from "../clock";
import { db } from "../../db/client";
import { signInFailures } from "../../db/schema";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

test("five failures lock an e-mail for 30 s, each further one doubles it; an hour without failure forgets", async () => {
  const m = await createTestMerchant();
  for (let i = 0; i < 5; i++) assert.equal(await signInWithPassword(m.email, `wrong ${i} guess here`, "203.0.113.5"), null);
  await assert.rejects(signInWithPassword(m.email, m.password, "203.0.113.6"), SignInLocked, "locked from any address");
  moveClock(31_000);
  assert.equal(await signInWithPassword(m.email, "wrong again, sixth", "203.0.113.5"), null);
  moveClock(31_000);
  await assert.rejects(signInWithPassword(m.email, m.password, "203.0.113.6"), SignInLocked, "the sixth failure locks for 60 s");
  moveClock(30_000);
  assert.equal((await signInWithPassword(m.email, m.password, "203.0.113.6"))?.id, m.userId);
  moveClock(-92_000);
});

test("failures are kept under a hash of the address, never the address", async () => {
  await signInWithPassword("Someone.Typed@Example.com", "not a real password", "203.0.113.9");
  const keys = (await db().select().from(signInFailures)).map((r) => r.key);
  assert.ok(keys.every((k) => !k.toLowerCase().includes("someone")));
  assert.ok(keys.includes("ip:203.0.113.9"));
});

test("a burst of concurrent wrong passwords is checked against the limit one at a time: at most five get an answer", async () => {
  const m = await createTestMerchant();
  const tries = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) => signInWithPassword(m.email, `burst guess ${i}`, "203.0.113.7")),
  );
  const checked = tries.filter((t) => t.status === "fulfilled");
  const locked = tries.filter((t) => t.status === "rejected" && t.reason instanceof SignInLocked);
  assert.equal(checked.length, 5, "exactly the limit was checked against the password");
  assert.equal(locked.length, 15);
  await assert.rejects(signInWithPassword(m.email, m.password, "203.0.113.8"), SignInLocked);
});
