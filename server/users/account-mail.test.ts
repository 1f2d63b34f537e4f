// The mails of an account, read from a real SMTP server: verification at sign-up, password reset, new-device and key notices.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { moveClock } from "../clock";
import { eventually } from "../testing/eventually";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { trpcFailure } from "../testing/initiation";
import { userClient } from "../testing/sessions";
import { startTestSmtp, type TestSmtp } from "../testing/smtp";
import { createMerchant } from "../merchants/create-merchant";
import { verifyEmail } from "./email-verification";
import { joinByInvite } from "../team/invites";
import { requestPasswordReset, resetLinkProblem, completePasswordReset, resetMailed } from "./password-reset";
import { userByCredentials, resetPassword } from "./users";
import { db } from "../../db/client";
import { accountTokens } from "../../db/schema";
import { allMail } from "../mail/outbox";
import { recordSignIn } from "./devices";
import { rollSecretKey } from "../auth/api-keys";

let owo: Owo;
let smtp: TestSmtp;
let people = 0;
before(async () => {
  smtp = await startTestSmtp();
  owo = await startOwo({ OWO_WORKER: "on", OWO_SMTP_URL: smtp.url, OWO_WEBHOOK_BACKOFF_SCALE: "0.01", OWO_REVOCATION_SECONDS: "0" });
});
after(async () => {
  await owo.stop();
  await smtp.stop();
});

/** The one link in a mail that starts with `path`. */
function linkIn(text: string, path: string): string {
  const found = text.match(new RegExp(`https?://\\S+${path.replace("/", "\\/")}\\?token=[\\w%-]+`));
  assert.ok(found, `a ${path} link in:\n${text}`);
  return found[0];
}
const tokenOf = (link: string) => new URL(link).searchParams.get("token") ?? "";

async function signUp() {
  const email = `signup${++people}.${Date.now()}@example.com`;
  const m = await createMerchant({ name: `Signup Store ${people}`, email, password: "first password 1" });
  return { ...m, email };
}

test("sign-up mails a verification link; until it is used the owner may sign in but not invite; the link works once", async () => {
  const m = await signUp();
  const mail = await smtp.waitFor(m.email, /confirm your e-mail/);
  const link = linkIn(mail.text, "/verify-email");
  assert.ok(mail.html.includes(`href="${link.replaceAll("&", "&amp;")}"`));

  const owner = await userClient(owo, m.userId);
  assert.ok(Array.isArray((await owner.payments.list.query({})).items), "signed in, reading payments");
  const refused = await trpcFailure(owner.team.invite.mutate({ role: "viewer" }));
  assert.equal(refused.code, "FORBIDDEN");
  assert.match(refused.message, /Confirm your e-mail/);

  assert.deepEqual(await verifyEmail(tokenOf(link)), { email: m.email });
  assert.match((await owner.team.invite.mutate({ role: "viewer" })).url, /invite=/, "confirmed: inviting works");
  await assert.rejects(() => verifyEmail(tokenOf(link)), /already used/);
  await assert.rejects(() => verifyEmail("not-a-token"), /not valid/);
  const audit = await owner.team.audit.query({});
  assert.ok(audit.entries.some((e) => e.action === "account.verifyEmail"));
});

test("the verification link can be sent again (not within a minute); the older link then stops working", async () => {
  const m = await signUp();
  const first = linkIn((await smtp.waitFor(m.email, /confirm your e-mail/)).text, "/verify-email");
  const owner = await userClient(owo, m.userId);
  assert.equal((await trpcFailure(owner.account.resendVerification.mutate())).code, "TOO_MANY_REQUESTS");
  moveClock(61_000);
  assert.deepEqual(await owner.account.resendVerification.mutate(), { sentTo: m.email });
  const again = await smtp.waitFor(m.email, /^Confirm your e-mail for Owo$/);
  await assert.rejects(() => verifyEmail(tokenOf(first)), /already used \(or a newer one was sent\)/);
  await verifyEmail(tokenOf(linkIn(again.text, "/verify-email")));
});

test("joining through an invite, mailed or copied, confirms no address: a verification mail is sent either way", async () => {
  const owner = await createTestMerchant("Invite Checks");
  const client = await userClient(owo, owner.userId);
  const mailed = await client.team.invite.mutate({ role: "admin", email: "bound@example.com" });
  const inviteMail = await smtp.waitFor("bound@example.com", /invited/);
  const mailedLink = inviteMail.text.match(/https?:\/\/\S+\/signup\?invite=\S+/)?.[0] ?? "";
  const bound = await joinByInvite({
    name: "Bound",
    email: "bound@example.com",
    password: "long enough pw",
    invite: new URL(mailedLink).searchParams.get("invite") ?? "",
  });
  assert.equal(mailed.mailed, true);
  // The inviter was handed the link too, so using it proves nothing: the address is confirmed the normal way.
  const boundClient = await userClient(owo, bound.userId);
  assert.equal((await trpcFailure(boundClient.team.invite.mutate({ role: "viewer" }))).code, "FORBIDDEN", "not confirmed by the invite");
  await verifyEmail(tokenOf(linkIn((await smtp.waitFor("bound@example.com", /Confirm your e-mail/)).text, "/verify-email")));
  assert.ok((await boundClient.team.invite.mutate({ role: "viewer" })).url, "a confirmed admin invites");

  const copied = await client.team.invite.mutate({ role: "admin" });
  const email = `copied${Date.now()}@example.com`;
  const joined = await joinByInvite({
    name: "Copied",
    email,
    password: "long enough pw",
    invite: new URL(copied.url).searchParams.get("invite") ?? "",
  });
  await smtp.waitFor(email, /Confirm your e-mail/);
  assert.equal((await trpcFailure((await userClient(owo, joined.userId)).team.invite.mutate({ role: "viewer" }))).code, "FORBIDDEN");
});

test("password reset: a 30-minute single-use link, hashed at rest; the new password works, the old does not, and a notice follows", async () => {
  const m = await createTestMerchant("Reset Foods");
  const before = await userClient(owo, m.userId);
  assert.ok((await before.team.members.query()).length, "signed in before the reset");
  await requestPasswordReset(m.email.toUpperCase());
  const link = linkIn((await smtp.waitFor(m.email, /Reset your Owo password/)).text, "/reset-password");
  const token = tokenOf(link);
  assert.ok(!JSON.stringify(await db().select().from(accountTokens)).includes(token), "only the token's hash is stored");
  assert.equal(await resetLinkProblem(token), null);

  await assert.rejects(
    completePasswordReset(token, "short", { ip: "203.0.113.9", userAgent: "Test Browser" }),
    /Invalid\/Missing parameters = password/,
  );
  await completePasswordReset(token, "a brand new password", { ip: "203.0.113.9", userAgent: "Test Browser" });
  assert.equal(await userByCredentials(m.email, m.password), null, "the old password no longer signs in");
  assert.ok(await userByCredentials(m.email, "a brand new password"));
  assert.equal((await trpcFailure(before.team.members.query())).code, "UNAUTHORIZED", "the reset ended the sessions signed in before it");
  const notice = await smtp.waitFor(m.email, /password was reset/);
  assert.match(notice.text, /203\.0\.113\.9/);
  assert.match(notice.text, /Test Browser/);

  assert.equal(await resetLinkProblem(token), "used");
  await assert.rejects(completePasswordReset(token, "another new password", { ip: null, userAgent: null }), /already used/);
  const audit = await (await userClient(owo, m.userId)).team.audit.query({});
  assert.ok(audit.entries.some((e) => e.action === "account.resetPassword"));
});

test("a reset link expires after 30 minutes; an address with no account gets no mail and the same answer", async () => {
  const m = await createTestMerchant("Expiry Mart");
  await requestPasswordReset(m.email);
  const token = tokenOf(linkIn((await smtp.waitFor(m.email, /Reset your Owo password/)).text, "/reset-password"));
  moveClock(29 * 60_000);
  assert.equal(await resetLinkProblem(token), null, "still good at 29 minutes");
  moveClock(61_000);
  assert.equal(await resetLinkProblem(token), "expired");
  await assert.rejects(completePasswordReset(token, "a brand new password", { ip: null, userAgent: null }), /expired/);

  assert.equal(await requestPasswordReset("nobody@example.com"), undefined);
  await resetMailed();
  assert.deepEqual(await allMail({ to: "nobody@example.com" }), [], "nothing is queued for an address with no account");
});

test("a sign-in from a browser not seen before is mailed; the first sign-in and a known browser are not", async () => {
  const m = await createTestMerchant("Device Shop");
  assert.deepEqual(
    await recordSignIn(m.userId, "laptop-cookie", { ip: "198.51.100.1", userAgent: "Laptop Browser" }),
    { newDevice: false },
    "first ever sign-in",
  );
  assert.deepEqual(await recordSignIn(m.userId, "laptop-cookie", { ip: "198.51.100.1", userAgent: "Laptop Browser" }), {
    newDevice: false,
  });
  assert.deepEqual(await recordSignIn(m.userId, "phone-cookie", { ip: "198.51.100.77", userAgent: "Phone Browser" }), { newDevice: true });
  const mail = await smtp.waitFor(m.email, /New sign-in/);
  assert.match(mail.text, /198\.51\.100\.77/);
  assert.match(mail.text, /Phone Browser/);
  assert.equal(smtp.mails.filter((x) => x.to.includes(m.email) && /New sign-in/.test(x.subject)).length, 1);
});

test("rolling the secret key or the signing secret mails every owner", async () => {
  const m = await createTestMerchant("Keys & Co");
  const owner = await userClient(owo, m.userId);
  await owner.keys.roll.mutate({ graceSeconds: 0 });
  const keyMail = await smtp.waitFor(m.email, /secret API key of Keys & Co was rolled/);
  assert.ok(keyMail.html.includes("Keys &amp; Co"));
  // The person's own action: the mail says who did it and from where, never "an unknown address".
  assert.match(keyMail.text, new RegExp(`By: ${m.email.replace(/[.+]/g, "\\$&")}, signed in to the dashboard\\. From: 127\\.0\\.0\\.1\\.`));
  assert.doesNotMatch(keyMail.text, /unknown address/);
  await owner.webhooks.secret.roll.mutate({ graceSeconds: 60 });
  const secretMail = await smtp.waitFor(m.email, /signing secret of Keys & Co was rolled/);
  assert.match(secretMail.text, /signed in to the dashboard/);

  // The operator's CLI: said so, not "an unknown address".
  await rollSecretKey({ merchantId: m.merchantId, mode: "test" }, 0);
  const cliMail = await eventually("the CLI roll's notice", () =>
    smtp.mails.find((x) => x.to.includes(m.email) && /By: this Owo's operator, with its command line\./.test(x.text)),
  );
  assert.doesNotMatch(cliMail.text, /unknown address/);
});

test("the operator's password reset (CLI) ends the person's sessions and mails them a notice", async () => {
  const m = await createTestMerchant("Operator Reset");
  const before = await userClient(owo, m.userId);
  await resetPassword(m.email, "operator chosen password");
  await smtp.waitFor(m.email, /changed by this Owo's operator/);
  assert.equal((await trpcFailure(before.team.members.query())).code, "UNAUTHORIZED");
});
