// OWO_SIGNUP as the sign-up page's doors meet it: open lets anyone sign a merchant up, invite only invited people,
// closed nobody; the operator's CLI creates merchants whatever it says, and a signed-in person still accepts invites.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ApiError } from "../api-error";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { createInvite, joinByInvite, acceptInvite } from "../team/invites";
import { settings, parseSettings } from "../settings";
import { signUpMerchant } from "./sign-up";
import { createMerchant } from "./create-merchant";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

let people = 0;
function withSignUp(policy: string) {
  process.env.OWO_SIGNUP = policy;
  delete (globalThis as { __owoSettings?: unknown }).__owoSettings;
}
const person = () => ({ name: `Person ${++people}`, email: `p${people}.${Date.now()}@example.com`, password: "a long password here" });
async function inviteTo(merchant: { merchantId: string; userId: string }) {
  const invite = await createInvite(merchant.merchantId, { userId: merchant.userId, role: "owner" }, { role: "viewer" });
  return new URL(invite.url).searchParams.get("invite") ?? "";
}
const refusal = (pattern: RegExp) => (e: unknown) =>
  e instanceof ApiError && e.code === "S3" && e.httpStatus === 403 && pattern.test(e.message);

test("open (the default): a new merchant and an invited person both sign up", async () => {
  delete process.env.OWO_SIGNUP;
  delete (globalThis as { __owoSettings?: unknown }).__owoSettings;
  assert.equal(settings().signup, "open");
  const made = await signUpMerchant({ ...person(), name: "Open Store" });
  assert.match(made.merchantId, /^mch_/);
  const joined = await joinByInvite({ ...person(), invite: await inviteTo(made) });
  assert.equal(joined.merchantId, made.merchantId);
});

test("invite: a new merchant is refused with who to ask; an invited person joins", async () => {
  const owner = await createTestMerchant("Invite Only Store");
  withSignUp("invite");
  await assert.rejects(signUpMerchant(person()), refusal(/^Sign-up on this Owo is by invitation: ask a merchant's owner or admin/));
  const joined = await joinByInvite({ ...person(), invite: await inviteTo(owner) });
  assert.equal(joined.merchantId, owner.merchantId);
});

test("closed: neither signs up; the operator still creates merchants, and a signed-in person still accepts an invite", async () => {
  const owner = await createTestMerchant("Closed Store");
  const other = await createTestMerchant("Someone Else's Store");
  withSignUp("closed");
  await assert.rejects(signUpMerchant(person()), refusal(/^Sign-up is closed on this Owo: its operator creates merchant accounts/));
  await assert.rejects(joinByInvite({ ...person(), invite: await inviteTo(owner) }), refusal(/^Sign-up is closed/));
  assert.match((await createMerchant({ ...person(), name: "Operator's Store", emailVerified: true })).merchantId, /^mch_/);
  const accepted = await acceptInvite(await inviteTo(owner), other.userId);
  assert.equal(accepted.merchantId, owner.merchantId);
});

test("any other value stops start-up naming the setting", async () => {
  assert.throws(() => parseSettings({ ...process.env, OWO_SIGNUP: "friends" }), /OWO_SIGNUP: must be open, invite or closed/);
});
