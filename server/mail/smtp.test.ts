// Mail over real SMTP: Owo's worker sends the outbox to an SMTP server running in this test, retries a refusal, escapes what people typed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { trpcFailure } from "../testing/initiation";
import { userClient } from "../testing/sessions";
import { startTestSmtp, type TestSmtp } from "../testing/smtp";
import { inviteByToken } from "../team/invites";
import { db } from "../../db/client";
import { mails } from "../../db/schema";
import { eventually } from "../testing/eventually";

let owo: Owo;
let smtp: TestSmtp;

before(async () => {
  smtp = await startTestSmtp();
  owo = await startOwo({
    OWO_WORKER: "on",
    OWO_SMTP_URL: smtp.url,
    OWO_MAIL_FROM: "Owo Test <no-reply@owo.test>",
    OWO_WEBHOOK_BACKOFF_SCALE: "0.01",
  });
});
after(async () => {
  await owo.stop();
  await smtp.stop();
});

test("an invite is mailed: the link in the mail opens the invite, and the team's name is escaped in the HTML body", async () => {
  const m = await createTestMerchant(`<b>Tunde & "Sons"</b>`);
  const owner = await userClient(owo, m.userId);
  const invite = await owner.team.invite.mutate({ role: "developer", email: "Ngozi@Example.com" });
  assert.equal(invite.mailed, true);
  const mail = await smtp.waitFor("ngozi@example.com", /invited/);
  assert.equal(mail.from, '"Owo Test" <no-reply@owo.test>');
  assert.equal(mail.subject, `You are invited to <b>Tunde & "Sons"</b> on Owo`);
  assert.ok(mail.text.includes(invite.url), "the plain-text body carries the invite link");
  assert.ok(mail.text.includes(`<b>Tunde & "Sons"</b>'s team`), "plain text is the name as typed");
  assert.ok(mail.html.includes("&lt;b&gt;Tunde &amp; &quot;Sons&quot;&lt;/b&gt;"), "HTML shows the name, escaped");
  assert.ok(!mail.html.includes("<b>Tunde"), "no markup from the name reaches the HTML");
  assert.ok(mail.html.includes(`href="${invite.url}"`));
  const token = new URL(invite.url).searchParams.get("invite") ?? "";
  assert.equal((await inviteByToken(token)).role, "developer");
});

test("a message the SMTP server refuses for now (451) is sent again after the backoff, and sent once", async () => {
  const m = await createTestMerchant("Retry Foods");
  const owner = await userClient(owo, m.userId);
  smtp.refuseNext("retry@example.com", 1);
  await owner.team.invite.mutate({ role: "viewer", email: "retry@example.com" });
  const mail = await smtp.waitFor("retry@example.com");
  // The mailer records the server's answer after it came: on PostgreSQL that commit may land after the mail does.
  const row = await eventually("the mail recorded as sent", async () => {
    const [found] = await db().select().from(mails).where(eq(mails.toAddress, "retry@example.com"));
    return found?.status !== "pending" && found;
  });
  assert.equal(row.status, "sent");
  assert.equal(row.attemptCount, 2, "refused once, then accepted");
  assert.equal(smtp.mails.filter((x) => x.messageId === mail.messageId).length, 1);
});

test("with SMTP configured there is no outbox to read in the dashboard", async () => {
  const m = await createTestMerchant();
  const failure = await trpcFailure((await userClient(owo, m.userId)).mail.outbox.query());
  assert.equal(failure.code, "NOT_FOUND");
  assert.match(failure.message, /SMTP/);
});
