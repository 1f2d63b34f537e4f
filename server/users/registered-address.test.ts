// Signing up with an address that has an account neither says so nor lets it be timed; its holder hears of it by mail.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { createMerchant } from "../merchants/create-merchant";
import { createInvite, joinByInvite } from "../team/invites";
import { allMail } from "../mail/outbox";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

test("a sign-up or an invite with a taken address gets the neutral refusal, and the holder a note by mail", async () => {
  const holder = await createTestMerchant();
  // Thunks: each attempt starts only when awaited, so no refusal goes unhandled meanwhile.
  const refusals = [
    () => createMerchant({ name: "Copycat Ltd", email: holder.email.toUpperCase(), password: "another long passphrase" }),
    async () =>
      joinByInvite({
        name: "Copycat",
        email: holder.email,
        password: "another long passphrase",
        invite:
          new URL(
            (await createInvite(holder.merchantId, { userId: holder.userId, role: "owner" }, { role: "viewer" })).url,
          ).searchParams.get("invite") ?? "",
      }),
  ];
  for (const refused of refusals) {
    await assert.rejects(refused(), (e: Error & { code?: string; errors?: { field: string; message: string }[] }) => {
      assert.equal(e.code, "S14");
      assert.doesNotMatch(e.message, /already (exists|registered)|is registered/i);
      assert.deepEqual(e.errors, [{ field: "email", message: "cannot be used to create an account" }]);
      return true;
    });
  }
  const notes = (await allMail({ to: holder.email })).filter((m) => m.kind === "sign_up_attempt");
  assert.equal(notes.length, 2);
  assert.match(notes[0]?.text ?? "", /Nothing was created/);
});
