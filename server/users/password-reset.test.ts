// "Forgot your password" as an attacker uses it: the answer must not tell who has an account (by content or by the
// work behind it), and one address cannot be flooded with reset mails that each void the last link.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { moveClock } from "../clock";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { allMail } from "../mail/outbox";
import { write } from "../../db/client";
import { requestPasswordReset, resetMailed } from "./password-reset";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const resetMails = async (to: string) => {
  return (await allMail({ to })).filter((x) => x.kind === "reset_password");
};

test("the answer does no work that depends on the address: it comes back while the database is held by a writer", async () => {
  const m = await createTestMerchant("Timing Foods");
  let release!: () => void;
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const holding = write(async () => {
    entered();
    await new Promise<void>((r) => (release = r));
  });
  await inside;
  const answered = Promise.all([requestPasswordReset(m.email), requestPasswordReset("nobody.here@example.com")]).then(() => "answered");
  const waited = new Promise<string>((r) => setTimeout(() => r("waited for the database"), 5000).unref());
  assert.equal(await Promise.race([answered, waited]), "answered", "a registered address answers as an unknown one: at once");
  release();
  await holding;
  await resetMailed();
  assert.equal((await resetMails(m.email)).length, 1, "the registered address is mailed after the answer");
  assert.equal((await resetMails("nobody.here@example.com")).length, 0, "an address with no account gets no mail");
});

test("one address gets at most one reset mail a minute and five an hour, however often it is asked for", async () => {
  const m = await createTestMerchant("Flood Mart");
  await Promise.all(Array.from({ length: 40 }, () => requestPasswordReset(m.email)));
  await resetMailed();
  assert.equal((await resetMails(m.email)).length, 1, "a burst of forty mails one link");
  for (let minute = 1; minute <= 8; minute++) {
    moveClock(61_000);
    await requestPasswordReset(m.email);
    await resetMailed();
  }
  assert.equal((await resetMails(m.email)).length, 5, "five an hour, one a minute at most");
  moveClock(-8 * 61_000);
});
