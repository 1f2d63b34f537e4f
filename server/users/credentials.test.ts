// A signed-in person changes their password and e-mail over tRPC: the current password first, a fresh code where
// two-factor sign-in is on, the old address told; signing in afterwards takes only the new credentials.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { generate } from "otplib";
import { clock, moveClock } from "../clock";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { trpcFailure } from "../testing/initiation";
import { userClient } from "../testing/sessions";
import { userByCredentials } from "./users";
import { allMail } from "../mail/outbox";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const codeAt = (secret: string, ms = clock.now()) => generate({ secret, epoch: Math.floor(ms / 1000) });
const signsIn = async (email: string, password: string) => userByCredentials(email, password);
const mailTo = async (to: string) => allMail({ to, limit: 20 });

test("password: the wrong current one is refused by field; the right one changes it, ends sessions and tells the person", async () => {
  const m = await createTestMerchant("Password Foods");
  const client = await userClient(owo, m.userId);
  const wrong = await trpcFailure(
    client.account.changePassword.mutate({ currentPassword: "not it at all", newPassword: "a brand new passphrase" }),
  );
  assert.equal(wrong.apiCode, "S5");
  assert.deepEqual(wrong.errors, [{ field: "currentPassword", message: "is not your current password" }]);
  const weak = await trpcFailure(client.account.changePassword.mutate({ currentPassword: m.password, newPassword: "short" }));
  assert.equal(weak.errors[0]?.field, "password");
  assert.deepEqual(await client.account.changePassword.mutate({ currentPassword: m.password, newPassword: "a brand new passphrase" }), {
    changed: true,
  });
  assert.equal(await signsIn(m.email, m.password), null, "the old password no longer signs in");
  assert.equal((await signsIn(m.email, "a brand new passphrase"))?.id, m.userId);
  assert.ok((await mailTo(m.email)).some((x) => x.text.includes("Your Owo password was changed")));
  assert.equal(
    (await trpcFailure(client.account.twoFactor.status.query())).code,
    "UNAUTHORIZED",
    "this session ended with the old password",
  );
});

test("e-mail: the old address is told, the new one gets a confirmation link and signs in; a taken address is refused", async () => {
  const m = await createTestMerchant("Email Foods");
  const other = await createTestMerchant("Other Foods");
  const client = await userClient(owo, m.userId);
  const taken = await trpcFailure(client.account.changeEmail.mutate({ currentPassword: m.password, newEmail: other.email }));
  assert.deepEqual(taken.errors, [{ field: "newEmail", message: "cannot be used for this account" }]);
  const fresh = `moved${Date.now()}@example.com`;
  assert.deepEqual(await client.account.changeEmail.mutate({ currentPassword: m.password, newEmail: fresh }), { email: fresh });
  assert.ok(
    (await mailTo(m.email)).some((x) => x.text.includes(`changed from ${m.email} to ${fresh}`)),
    "the old address is told",
  );
  assert.ok(
    (await mailTo(fresh)).some((x) => x.kind === "verify_email"),
    "the new address gets its confirmation link",
  );
  assert.equal((await signsIn(fresh, m.password))?.id, m.userId);
  assert.equal(await signsIn(m.email, m.password), null);
});

test("with two-factor sign-in on, a change needs a fresh code as well as the password", async () => {
  const m = await createTestMerchant("Two Factor Foods");
  const client = await userClient(owo, m.userId);
  const { secret } = await client.account.twoFactor.start.mutate();
  await client.account.twoFactor.confirm.mutate({ code: await codeAt(secret) });
  moveClock(31_000);
  const noCode = await trpcFailure(
    client.account.changeEmail.mutate({ currentPassword: m.password, newEmail: `x${Date.now()}@example.com` }),
  );
  assert.equal(noCode.errors[0]?.field, "code");
  const badCode = await trpcFailure(
    client.account.changePassword.mutate({
      currentPassword: m.password,
      newPassword: "a brand new passphrase",
      code: "000000" === (await codeAt(secret)) ? "111111" : "000000",
    }),
  );
  assert.equal(badCode.apiCode, "S5");
  assert.ok(await signsIn(m.email, m.password), "nothing changed");
  await client.account.changePassword.mutate({
    currentPassword: m.password,
    newPassword: "a brand new passphrase",
    code: await codeAt(secret),
  });
  assert.ok(await signsIn(m.email, "a brand new passphrase"));
});
