// Two-factor sign-in over real HTTP: enrolment, codes accepted once, recovery codes used once, wrong codes counted in
// the database, and a team that requires it.
// dialect: sqlite only — it reads the database file through SQLite itself (rawSqlite).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { generate } from "otplib";
import { clock, moveClock } from "../clock";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { trpcFailure } from "../testing/initiation";
import { userClient } from "../testing/sessions";
import { rawSqlite as sqlite } from "../../db/client";
import { checkSecondFactor } from "./two-factor";
import { joinByInvite } from "../team/invites";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const codeAt = (secret: string, ms = clock.now()) => generate({ secret, epoch: Math.floor(ms / 1000) });

/** A merchant whose owner has enrolled; answers the secret and the recovery codes. */
async function enrolled(name: string) {
  const m = await createTestMerchant(name);
  const client = await userClient(owo, m.userId);
  const { secret, otpauthUri, qrSvg } = await client.account.twoFactor.start.mutate();
  assert.match(otpauthUri, new RegExp(`^otpauth://totp/Owo:.*\\?.*secret=${secret}`));
  assert.match(qrSvg, /^<svg/);
  const { recoveryCodes } = await client.account.twoFactor.confirm.mutate({ code: await codeAt(secret) });
  moveClock(31_000); // the next check needs a newer code: each is accepted once
  return { m, client, secret, recoveryCodes };
}

test("enrolment: a wrong code is refused, the right one turns it on with ten recovery codes; secrets are not stored in the clear", async () => {
  const m = await createTestMerchant("Enrol Foods");
  const client = await userClient(owo, m.userId);
  assert.equal((await client.account.twoFactor.status.query()).enabled, false);
  const { secret } = await client.account.twoFactor.start.mutate();
  const wrong = await trpcFailure(
    client.account.twoFactor.confirm.mutate({ code: "000000" === (await codeAt(secret)) ? "111111" : "000000" }),
  );
  assert.equal(wrong.apiCode, "S5");
  assert.equal(wrong.errors[0]?.field, "code");
  const { recoveryCodes } = await client.account.twoFactor.confirm.mutate({ code: await codeAt(secret) });
  assert.equal(recoveryCodes.length, 10);
  assert.equal(new Set(recoveryCodes).size, 10);
  assert.deepEqual(
    { ...(await client.account.twoFactor.status.query()), enabledAt: 0 },
    { enabled: true, enabledAt: 0, recoveryCodesLeft: 10, requiredBy: [] },
  );

  const dump = JSON.stringify([sqlite().prepare("select * from users").all(), sqlite().prepare("select * from recovery_codes").all()]);
  assert.ok(!dump.includes(secret), "the TOTP secret is sealed");
  for (const c of recoveryCodes) assert.ok(!dump.includes(c) && !dump.includes(c.replace("-", "")), "recovery codes are hashed");
  const audit = await client.team.audit.query({});
  assert.ok(audit.entries.some((e) => e.action === "account.enableTwoFactor"));
  const mails = await client.mail.outbox.query();
  assert.ok(mails.some((x) => x.subject === "Owo security notice: Two-factor sign-in was turned on for your Owo account"));
});

test("a code is accepted once; a recovery code works once; five wrong codes lock the check for 15 minutes, counted in the database", async () => {
  const { m, secret, recoveryCodes } = await enrolled("Codes Ltd");
  const code = await codeAt(secret);
  assert.equal(await checkSecondFactor(m.userId, code), "ok");
  assert.equal(await checkSecondFactor(m.userId, code), "wrong", "the same code again");
  const [first] = recoveryCodes;
  assert.ok(first);
  assert.equal(await checkSecondFactor(m.userId, first.toUpperCase()), "ok", "a recovery code, however typed");
  assert.equal(await checkSecondFactor(m.userId, first), "wrong", "used up");

  for (let i = 0; i < 3; i++) assert.equal(await checkSecondFactor(m.userId, "12345"), "wrong");
  assert.equal((sqlite().prepare("select count(*) n from second_factor_failures where user_id = ?").get(m.userId) as { n: number }).n, 5);
  moveClock(31_000);
  assert.equal(await checkSecondFactor(m.userId, await codeAt(secret)), "locked", "even the right code, after five wrong ones");
  moveClock(15 * 60_000);
  assert.equal(await checkSecondFactor(m.userId, await codeAt(secret)), "ok", "15 minutes later");
});

test("an owner requires two factors: a teammate without them can reach only their account until they enrol; it cannot then be turned off", async () => {
  const m = await createTestMerchant("Strict Team");
  const owner = await userClient(owo, m.userId);
  assert.match(
    (await trpcFailure(owner.team.requireTwoFactor.mutate({ required: true }))).message,
    /Turn on two-factor sign-in for yourself first/,
  );
  const { secret } = await owner.account.twoFactor.start.mutate();
  await owner.account.twoFactor.confirm.mutate({ code: await codeAt(secret) });

  const email = `teammate${Date.now()}@example.com`;
  const invite = await owner.team.invite.mutate({ role: "developer", email });
  const mate = await joinByInvite({
    name: "Mate",
    email,
    password: "long enough pw",
    invite: new URL(invite.url).searchParams.get("invite") ?? "",
  });
  const teammate = await userClient(owo, mate.userId);
  assert.ok(Array.isArray((await teammate.payments.list.query({})).items), "allowed before the requirement");

  assert.deepEqual(await owner.team.requireTwoFactor.mutate({ required: true }), { requireTwoFactor: true });
  const refused = await trpcFailure(teammate.payments.list.query({}));
  assert.equal(refused.code, "FORBIDDEN");
  assert.match(refused.message, /Strict Team requires two-factor sign-in/);
  assert.equal((await trpcFailure(teammate.links.create.mutate({ title: "x", amount: "100", channels: ["USSD"] }))).code, "FORBIDDEN");

  const { secret: mateSecret } = await teammate.account.twoFactor.start.mutate();
  await teammate.account.twoFactor.confirm.mutate({ code: await codeAt(mateSecret) });
  assert.ok(Array.isArray((await teammate.payments.list.query({})).items), "enrolled: the dashboard opens");
  moveClock(31_000);
  const off = await trpcFailure(teammate.account.twoFactor.disable.mutate({ code: await codeAt(mateSecret) }));
  assert.match(off.message, /Strict Team requires two-factor sign-in/);
  const audit = await owner.team.audit.query({});
  assert.ok(audit.entries.some((e) => e.action === "team.requireTwoFactor"));
});

test("recovery codes can be renewed and two-factor turned off, each with a fresh code", async () => {
  const { m, client, secret, recoveryCodes } = await enrolled("Renew Co");
  const renewed = await client.account.twoFactor.renewRecoveryCodes.mutate({ code: await codeAt(secret) });
  assert.equal(renewed.recoveryCodes.length, 10);
  assert.equal(await checkSecondFactor(m.userId, recoveryCodes[1] ?? ""), "wrong", "old codes no longer work");
  moveClock(31_000);
  assert.deepEqual(await client.account.twoFactor.disable.mutate({ code: await codeAt(secret) }), { enabled: false });
  assert.equal((await client.account.twoFactor.status.query()).enabled, false);
});

test("sensitive actions ask a person with two factors for a fresh code once the session's last check is 15 minutes old", async () => {
  const { m, client: enrolledHere, secret } = await enrolled("Sensitive Ltd");
  assert.match((await enrolledHere.keys.roll.mutate({ graceSeconds: 0 })).secretKey, /^sk_/, "the enrolling session typed a code: fresh");
  // Another session of the same person, which never proved a second factor.
  const client = await userClient(owo, m.userId);
  const refused = await trpcFailure(client.keys.roll.mutate({ graceSeconds: 0 }));
  assert.equal(refused.code, "FORBIDDEN");
  assert.deepEqual(refused.errors, [{ field: "secondFactor", message: "must be entered again" }]);
  assert.equal((await trpcFailure(client.webhooks.secret.roll.mutate({ graceSeconds: 0 }))).errors[0]?.field, "secondFactor");
  assert.equal((await trpcFailure(client.team.changeRole.mutate({ userId: m.userId, role: "owner" }))).errors[0]?.field, "secondFactor");

  assert.equal(
    (await trpcFailure(client.account.twoFactor.refresh.mutate({ code: "000000" === (await codeAt(secret)) ? "111111" : "000000" })))
      .apiCode,
    "S5",
  );
  await client.account.twoFactor.refresh.mutate({ code: await codeAt(secret) });
  assert.match((await client.keys.roll.mutate({ graceSeconds: 0 })).secretKey, /^sk_/);
  moveClock(14 * 60_000);
  await client.keys.roll.mutate({ graceSeconds: 0 });
  moveClock(61_000);
  assert.equal(
    (await trpcFailure(client.keys.roll.mutate({ graceSeconds: 0 }))).errors[0]?.field,
    "secondFactor",
    "15 minutes on, asked again",
  );
});
