// The team over real HTTP: invites, roles enforced by the tRPC procedures, removal, the last owner, the audit log.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { trpcClient, trpcFailure } from "../testing/initiation";
import { confirmAddress, userClient } from "../testing/sessions";
import { db } from "../../db/client";
import { invites as table } from "../../db/schema";
import { auditSummary } from "./audit";

let owo: Owo;
let m: TestMerchant;
let owner: Awaited<ReturnType<typeof userClient>>;
let people = 0;

before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Suya Spot");
  owner = await userClient(owo, m.userId);
});
after(() => owo.stop());

const invites = () => import("./invites");
const tokenOf = (url: string) => new URL(url).searchParams.get("invite") ?? "";

/** Invites someone with `role` and signs them up through the link, as the sign-up page does. */
async function join(role: "owner" | "admin" | "developer" | "viewer", by = owner) {
  const email = `p${++people}.${Date.now()}@example.com`;
  const invite = await by.team.invite.mutate({ role, email });
  const joined = await (
    await invites()
  ).joinByInvite({ name: `Person ${people}`, email, password: "long enough pw", invite: tokenOf(invite.url) });
  // Confirmed the normal way (the invite proves nothing), so the new person may invite in turn.
  await confirmAddress(email);
  return { ...joined, client: await userClient(owo, joined.userId) };
}

test("an invite link signs a new person up into the merchant with the invited role, once", async () => {
  const invite = await owner.team.invite.mutate({ role: "developer" });
  assert.match(invite.url, new RegExp(`^${owo.url}/signup\\?invite=inv_`));
  const token = tokenOf(invite.url);
  assert.deepEqual(await (await invites()).inviteByToken(token), {
    merchantName: "Suya Spot",
    role: "developer",
    email: null,
    expiresAt: invite.expiresAt,
  });
  assert.ok(Math.abs(Date.parse(invite.expiresAt) - Date.now() - 7 * 86400_000) < 60_000, "lives 7 days");
  assert.ok((await owner.team.invites.query()).some((i) => i.id === invite.id));

  assert.ok(!JSON.stringify(await db().select().from(table)).includes(token), "only the token's hash is stored");

  const joined = await (
    await invites()
  ).joinByInvite({ name: "Chidi", email: `chidi${Date.now()}@example.com`, password: "long enough pw", invite: token });
  assert.equal(joined.merchantId, m.merchantId, "no new merchant");
  const members = await owner.team.members.query();
  assert.equal(members.find((p) => p.userId === joined.userId)?.role, "developer");
  assert.ok(!(await owner.team.invites.query()).some((i) => i.id === invite.id), "used invites are no longer open");

  await assert.rejects(
    (await invites()).joinByInvite({ name: "Eve", email: `eve${Date.now()}@example.com`, password: "long enough pw", invite: token }),
    /not valid/,
  );
  const { inviteByToken } = await invites();
  await assert.rejects(() => inviteByToken(token), /not valid/);
});

test("an invite expires after 7 days and can be withdrawn", async () => {
  const invite = await owner.team.invite.mutate({ role: "viewer" });
  const { inviteByToken } = await invites();
  await assert.rejects(() => inviteByToken(tokenOf(invite.url), Date.now() + 7 * 86400_000 + 1000), /not valid/);
  await owner.team.withdrawInvite.mutate({ id: invite.id });
  await assert.rejects(() => inviteByToken(tokenOf(invite.url)), /not valid/);
});

test("a viewer reads payments, links and the team but every change is refused FORBIDDEN", async () => {
  const viewer = (await join("viewer")).client;
  assert.ok(Array.isArray((await viewer.payments.list.query({})).items));
  assert.ok(Array.isArray(await viewer.links.list.query()));
  assert.ok((await viewer.team.members.query()).length >= 2);
  // Thunks, not promises: each call starts only when awaited, so no rejection waits unhandled.
  for (const refused of [
    () => viewer.links.create.mutate({ title: "Sneaky", amount: "1000", channels: ["TRANSFER"] }),
    () => viewer.team.invite.mutate({ role: "viewer" }),
    () => viewer.team.changeRole.mutate({ userId: m.userId, role: "viewer" }),
    () => viewer.keys.roll.mutate({ graceSeconds: 0 }),
    () => viewer.links.setDefaults.mutate({ defaultRedirectUrl: "https://evil.example/" }),
  ]) {
    const failure = await trpcFailure(refused());
    assert.equal(failure.code, "FORBIDDEN");
    assert.equal(failure.apiCode, "S3");
  }
  assert.equal((await trpcFailure(viewer.team.audit.query())).code, "FORBIDDEN");
});

test("only an owner makes owners; admins manage everyone else", async () => {
  const admin = await join("admin");
  assert.equal((await trpcFailure(admin.client.team.invite.mutate({ role: "owner" }))).code, "FORBIDDEN");
  const dev = await join("developer", admin.client);
  assert.equal((await trpcFailure(admin.client.team.changeRole.mutate({ userId: dev.userId, role: "owner" }))).code, "FORBIDDEN");
  assert.equal((await trpcFailure(admin.client.team.remove.mutate({ userId: m.userId }))).code, "FORBIDDEN");
  const changed = await admin.client.team.changeRole.mutate({ userId: dev.userId, role: "viewer" });
  assert.equal(changed.role, "viewer");
  assert.equal(
    (await trpcFailure(dev.client.links.create.mutate({ title: "x", amount: "1000", channels: ["USSD"] }))).code,
    "FORBIDDEN",
    "the new role applies at once",
  );
});

test("a removed member loses access at once", async () => {
  const dev = await join("developer");
  await dev.client.links.create.mutate({ title: "Before removal", amount: "1000", channels: ["TRANSFER"] });
  assert.deepEqual(await owner.team.remove.mutate({ userId: dev.userId }), { removed: dev.userId });
  assert.equal((await trpcFailure(dev.client.links.list.query())).code, "UNAUTHORIZED");
  assert.equal(
    (await trpcFailure(dev.client.links.create.mutate({ title: "After", amount: "1000", channels: ["TRANSFER"] }))).code,
    "UNAUTHORIZED",
  );
  assert.ok(!(await owner.team.members.query()).some((p) => p.userId === dev.userId));
});

test("the last owner can be neither removed nor demoted; with a second owner they can", async () => {
  const solo = await createTestMerchant("Solo Owner Ltd");
  const soloOwner = await userClient(owo, solo.userId);
  for (const refused of [
    () => soloOwner.team.remove.mutate({ userId: solo.userId }),
    () => soloOwner.team.changeRole.mutate({ userId: solo.userId, role: "admin" }),
  ]) {
    const failure = await trpcFailure(refused());
    assert.equal(failure.code, "FORBIDDEN");
    assert.match(failure.message, /last owner/);
  }
  const second = await join("owner", soloOwner);
  assert.equal((await second.client.team.members.query()).filter((p) => p.role === "owner").length, 2);
  await second.client.team.remove.mutate({ userId: solo.userId });
  assert.equal((await trpcFailure(soloOwner.team.members.query())).code, "UNAUTHORIZED");
  assert.equal((await trpcFailure(second.client.team.remove.mutate({ userId: second.userId }))).code, "FORBIDDEN");
});

test("a signed-in person accepts an invite into a second merchant and can switch to it", async () => {
  const other = await createTestMerchant("Second Shop");
  const invite = await (await userClient(owo, other.userId)).team.invite.mutate({ role: "admin", email: "SomeoneElse@example.com" });
  const { acceptInvite } = await invites();
  await assert.rejects(() => acceptInvite(tokenOf(invite.url), m.userId), /someoneelse@example\.com/);

  const open = await (await userClient(owo, other.userId)).team.invite.mutate({ role: "admin" });
  assert.deepEqual(await acceptInvite(tokenOf(open.url), m.userId), {
    merchantId: other.merchantId,
    merchantName: "Second Shop",
    role: "admin",
  });
  const switched = await userClient(owo, m.userId, { "owo-merchant": other.merchantId });
  assert.ok((await switched.team.members.query()).some((p) => p.userId === m.userId && p.role === "admin"));
  assert.ok(
    (await owner.team.members.query()).some((p) => p.userId === m.userId && p.role === "owner"),
    "still owner of the first",
  );
});

test("machines with API keys cannot touch the team", async () => {
  const machine = trpcClient(owo, await tokenFor(owo, m));
  assert.equal((await trpcFailure(machine.team.invite.mutate({ role: "viewer" }))).code, "FORBIDDEN");
  assert.equal((await trpcFailure(machine.team.members.query())).code, "FORBIDDEN");
});

test("the audit log records who did what, never a secret, for owners and admins", async () => {
  const rolled = await owner.keys.roll.mutate({ graceSeconds: 60 });
  await owner.links.create.mutate({ title: "Audited link", amount: "1000", channels: ["TRANSFER"] });
  const { entries } = await owner.team.audit.query({ limit: 100 });
  const create = entries.find((e) => e.action === "links.create" && (e.detail as { title?: string }).title === "Audited link");
  assert.ok(create, "links.create recorded");
  assert.equal(create.userEmail, m.email);
  assert.ok(Date.now() - Date.parse(create.at) < 60_000);
  const roll = entries.find((e) => e.action === "keys.roll");
  assert.deepEqual(roll?.detail, { graceSeconds: 60 });
  assert.ok(
    entries.some((e) => e.action === "team.acceptInvite"),
    "joining through an invite is recorded too",
  );
  assert.ok(!JSON.stringify(entries).includes(rolled.secretKey), "the new secret never reaches the log");
  assert.ok(!entries.some((e) => e.action === "links.list"), "reads are not actions");

  assert.deepEqual(auditSummary({ password: "hunter22", nested: { secretKey: "sk_test_x" }, note: "x".repeat(500) }), {
    password: "[redacted]",
    nested: { secretKey: "[redacted]" },
    note: `${"x".repeat(120)}…`,
  });
});
