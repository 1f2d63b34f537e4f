// Who may do what, changed by a determined attacker: a stale session adding or removing owners, and an invite
// redeemed by its maker after the maker lost the right to grant it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { generate } from "otplib";
import { clock, moveClock } from "../clock";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { trpcFailure } from "../testing/initiation";
import { confirmAddress, userClient } from "../testing/sessions";
import { joinByInvite, acceptInvite } from "./invites";
import { write } from "../../db/client";
import { memberships } from "../../db/schema";
import { and, eq } from "drizzle-orm";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(clock.now() / 1000) });
const inviteToken = (url: string) => new URL(url).searchParams.get("invite") ?? "";
let people = 0;

/** A person who joins `merchantId`'s team through `url` and confirms their address. */
async function joinThrough(url: string) {
  const email = `mate${++people}.${Date.now()}@example.com`;
  const joined = await joinByInvite({ name: `Mate ${people}`, email, password: "long enough pw", invite: inviteToken(url) });
  await confirmAddress(email);
  return { ...joined, client: await userClient(owo, joined.userId) };
}

test("a session whose last two-factor code is stale can neither invite, remove, re-role, withdraw nor drop the team's rule", async () => {
  const m = await createTestMerchant("Stale Session Ltd");
  const enrolling = await userClient(owo, m.userId);
  const { secret } = await enrolling.account.twoFactor.start.mutate();
  await enrolling.account.twoFactor.confirm.mutate({ code: await codeAt(secret) });
  const admin = await joinThrough((await enrolling.team.invite.mutate({ role: "admin" })).url);
  const pending = await enrolling.team.invite.mutate({ role: "viewer" });
  await enrolling.team.requireTwoFactor.mutate({ required: true });
  moveClock(31_000);

  // Another browser of the same owner (say, left signed in somewhere) that never typed a code.
  const stale = await userClient(owo, m.userId);
  const attempts = {
    "invite an owner": () => stale.team.invite.mutate({ role: "owner" }),
    "remove a member": () => stale.team.remove.mutate({ userId: admin.userId }),
    "change a role": () => stale.team.changeRole.mutate({ userId: admin.userId, role: "owner" }),
    "withdraw an invite": () => stale.team.withdrawInvite.mutate({ id: pending.id }),
    "stop requiring two factors": () => stale.team.requireTwoFactor.mutate({ required: false }),
  };
  for (const [what, attempt] of Object.entries(attempts)) {
    const refused = await trpcFailure(attempt());
    assert.equal(refused.code, "FORBIDDEN", what);
    assert.deepEqual(refused.errors, [{ field: "secondFactor", message: "must be entered again" }], what);
  }
  const members = await stale.team.members.query();
  assert.equal(members.find((p) => p.userId === admin.userId)?.role, "admin", "nothing changed");

  await stale.account.twoFactor.refresh.mutate({ code: await codeAt(secret) });
  assert.equal((await stale.team.invite.mutate({ role: "owner" })).role, "owner", "with a fresh code it goes through");
  assert.deepEqual(await stale.team.requireTwoFactor.mutate({ required: false }), { requireTwoFactor: false });
  assert.deepEqual(await stale.team.remove.mutate({ userId: admin.userId }), { removed: admin.userId });
  moveClock(-31_000);
});

test("a removed or demoted admin's earlier invites are withdrawn with their rights and can no longer be redeemed", async () => {
  const m = await createTestMerchant("Withdrawn Rights Ltd");
  const owner = await userClient(owo, m.userId);
  const admin = await joinThrough((await owner.team.invite.mutate({ role: "admin" })).url);
  // The admin makes a spare link for themselves before being removed, and another admin one.
  const spare = await admin.client.team.invite.mutate({ role: "admin" });
  const demotedAdmin = await joinThrough((await owner.team.invite.mutate({ role: "admin" })).url);
  const demotedSpare = await demotedAdmin.client.team.invite.mutate({ role: "developer" });

  await owner.team.remove.mutate({ userId: admin.userId });
  await owner.team.changeRole.mutate({ userId: demotedAdmin.userId, role: "viewer" });
  const open = (await owner.team.invites.query()).map((i) => i.id);
  assert.ok(!open.includes(spare.id) && !open.includes(demotedSpare.id), "their open invites are withdrawn");

  await assert.rejects(acceptInvite(inviteToken(spare.url), admin.userId), /not valid/, "the removed admin cannot come back");
  await assert.rejects(acceptInvite(inviteToken(demotedSpare.url), admin.userId), /not valid/);
  const members = await owner.team.members.query();
  assert.ok(!members.some((p) => p.userId === admin.userId));
  assert.equal(members.find((p) => p.userId === demotedAdmin.userId)?.role, "viewer");
});

test("an invite whose maker lost the right to grant it before this rule existed is refused when accepted", async () => {
  const m = await createTestMerchant("Old Data Ltd");
  const owner = await userClient(owo, m.userId);
  const admin = await joinThrough((await owner.team.invite.mutate({ role: "admin" })).url);
  const link = await admin.client.team.invite.mutate({ role: "admin" });
  // A demotion written without withdrawing (as data from before this rule stands): the invite still looks open.
  await write((tx) =>
    tx
      .update(memberships)
      .set({ role: "viewer" })
      .where(and(eq(memberships.userId, admin.userId), eq(memberships.merchantId, m.merchantId))),
  );
  await assert.rejects(
    joinByInvite({
      name: "Sock Puppet",
      email: `puppet${Date.now()}@example.com`,
      password: "long enough pw",
      invite: inviteToken(link.url),
    }),
    /not valid/,
  );
});
