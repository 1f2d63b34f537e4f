// A dump of the database holds no secret key, signing secret, access token or password in clear.
// dialect: sqlite only — it reads the database file through SQLite itself (rawSqlite).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { rollSecretKey } from "./api-keys";
import { rollSigningSecret, revealOrCreateSigningSecret } from "../webhooks/signing-secrets";
import { rawSqlite as sqlite } from "../../db/client";
import { requestPasswordReset, resetMailed } from "../users/password-reset";
import { createInvite } from "../team/invites";
import { allMail } from "../mail/outbox";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

test("secret keys, signing secrets, tokens and passwords are hashed or sealed at rest", async () => {
  const secrets: string[] = [];
  for (let i = 0; i < 3; i++) {
    const m = await createTestMerchant();
    secrets.push(m.secretKey, m.webhookSecret, m.password);
    secrets.push(await tokenFor(owo, m));
    const rolled = await rollSecretKey({ merchantId: m.merchantId, mode: "test" }, 3600);
    secrets.push(rolled.secretKey, await tokenFor(owo, { secretKey: rolled.secretKey, publicKey: m.publicKey }));
    secrets.push(await rollSigningSecret(m.merchantId, "test", 3600));
    assert.equal(
      await revealOrCreateSigningSecret({ merchantId: m.merchantId, mode: "test" }),
      secrets[secrets.length - 1],
      "sealed secrets come back for signing",
    );
  }
  // Single-use links mailed to people: only hashes in their tables, and the mail carrying them is sealed.
  const owner = await createTestMerchant();
  await requestPasswordReset(owner.email);
  await resetMailed();
  const invite = await createInvite(
    owner.merchantId,
    { userId: owner.userId, role: "owner" },
    { role: "viewer", email: "sealed@example.com" },
  );
  secrets.push(new URL(invite.url).searchParams.get("invite") ?? "");
  const resetLink = (await allMail({ to: owner.email })).find((x) => x.kind === "reset_password")?.text.match(/token=([\w-]+)/)?.[1];
  assert.ok(resetLink, "the reset mail reads back whole");
  secrets.push(resetLink);
  const tables = sqlite().prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
  const dump = tables.map((t) => JSON.stringify(sqlite().prepare(`select * from "${t.name}"`).all())).join("\n");
  const files = ["owo.db", "owo.db-wal"]
    .map((f) => join(owo.dataDir, f))
    .filter(existsSync)
    .map((f) => readFileSync(f).toString("latin1"));
  for (const secret of secrets) {
    const core = secret.replace(/^(sk_test_|whsec_|owo_test_)/, "");
    assert.ok(!dump.includes(core), `clear secret in a row: ${secret.slice(0, 12)}…`);
    for (const f of files) assert.ok(!f.includes(core), `clear secret in the file: ${secret.slice(0, 12)}…`);
  }
  assert.match(dump, /\$argon2id\$v=19\$m=19456,t=2,p=1\$/, "passwords are argon2id");
});
