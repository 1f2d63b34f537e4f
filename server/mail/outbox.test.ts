// With no SMTP configured, mail stays in the outbox: owners read their team's mail in the dashboard, the operator's CLI prints it all.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { trpcFailure } from "../testing/initiation";
import { runCli } from "../testing/processes";
import { userClient } from "../testing/sessions";
import { startMailerFromSettings } from "./mailer";
import { joinByInvite } from "../team/invites";

let owo: Owo;
before(async () => {
  owo = await startOwo({ OWO_WORKER: "on" });
});
after(() => owo.stop());

test("an owner reads the team's mail, kept unsent; other teams and other roles do not", async () => {
  const a = await createTestMerchant("Ada Fabrics");
  const b = await createTestMerchant("Bola Phones");
  const ownerA = await userClient(owo, a.userId);
  const invite = await ownerA.team.invite.mutate({ role: "viewer", email: "kemi@example.com" });
  // With no SMTP configured the worker starts no mailer, so nothing can take the mail out of the outbox.
  assert.equal(startMailerFromSettings(), null, "no mailer without SMTP");

  const mails = await ownerA.mail.outbox.query();
  const inviteMail = mails.find((m) => m.to === "kemi@example.com");
  assert.ok(inviteMail, "the invite mail is in the outbox");
  assert.equal(inviteMail.status, "pending");
  assert.ok(inviteMail.text.includes(invite.url));
  assert.ok(
    mails.some((m) => m.kind === "welcome" && m.to === a.email),
    "the owner's own welcome mail",
  );

  const ownerB = await userClient(owo, b.userId);
  const seenByB = JSON.stringify(await ownerB.mail.outbox.query());
  assert.ok(!seenByB.includes("kemi@example.com") && !seenByB.includes("Ada Fabrics"), "another team's mail is not shown");

  const joined = await joinByInvite({
    name: "Kemi",
    email: "kemi@example.com",
    password: "long enough pw",
    invite: new URL(invite.url).searchParams.get("invite") ?? "",
  });
  const viewer = await userClient(owo, joined.userId);
  assert.equal((await trpcFailure(viewer.mail.outbox.query())).code, "FORBIDDEN");
});

test("the CLI prints the outbox, as text and as JSON", async () => {
  const m = await createTestMerchant("Cli Mart");
  const out = runCli(["mail", "list", "--to", m.email], owo.dataDir);
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /kept, not sent · to owner/);
  assert.match(out.stdout, /Subject: Welcome to Owo, Cli Mart/);
  const json = runCli(["mail", "list", "--json", "--limit", "5"], owo.dataDir);
  const parsed = JSON.parse(json.stdout) as { mails: { to: string; subject: string; text: string }[] };
  assert.ok(parsed.mails.length >= 1 && parsed.mails.length <= 5);
  assert.equal(runCli(["mail", "list", "--limit", "0"], owo.dataDir).status, 1);
});
