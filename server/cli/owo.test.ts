// The operator CLI as an operator runs it: its own process, a real database file.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { tempDataDir } from "../testing/harness";
import { runCli, spawnOwo } from "../testing/processes";

const dataDir = tempDataDir();
after(() => rmSync(dataDir, { recursive: true, force: true }));

test("merchant create --json prints exactly API.md's fields, and the keys work over HTTP", async () => {
  const r = runCli(["merchant", "create", "--name", "Acme", "--email", "owner@acme.ng", "--password", "a long password", "--json"], dataDir);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split("\n").pop() ?? "");
  assert.deepEqual(Object.keys(out), ["merchantId", "publicKey", "secretKey", "webhookSecret"]);
  assert.equal(typeof out.merchantId, "string");
  assert.match(out.publicKey, /^pk_test_[0-9a-f]{32}$/);
  assert.match(out.secretKey, /^sk_test_[0-9a-f]{40}$/);
  assert.match(out.webhookSecret, /^whsec_[A-Za-z0-9+/]{43}=$/);

  const rolled = runCli(["keys", "roll", "--merchant", out.merchantId, "--json"], dataDir);
  assert.equal(rolled.status, 0, rolled.stderr);
  const newSecret = JSON.parse(rolled.stdout.trim().split("\n").pop() ?? "").secretKey;
  assert.notEqual(newSecret, out.secretKey);

  const owo = await spawnOwo(dataDir);
  try {
    const exchange = (key: string) => fetch(`${owo.url}/api/v2/encrypt/keys`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key }) });
    assert.equal((await exchange(`${newSecret}.${out.publicKey}`)).status, 200);
    assert.equal((await exchange(`${out.secretKey}.${out.publicKey}`)).status, 401, "the rolled secret died at once");
  } finally {
    owo.child.kill("SIGTERM");
    await owo.exited;
  }
});

test("user reset-password changes the password; a duplicate e-mail or bad input fails with a clear message", async () => {
  const ok = runCli(["user", "reset-password", "--email", "owner@acme.ng", "--password", "another long password"], dataDir);
  assert.equal(ok.status, 0, ok.stderr);
  const { passwordMatches } = await import("../auth/passwords");
  process.env.DATABASE_URL = `${dataDir}/owo.db`;
  const { db } = await import("../../db/client");
  const { users } = await import("../../db/schema");
  const user = db().select().from(users).all().find((u) => u.email === "owner@acme.ng");
  assert.ok(user && (await passwordMatches(user.passwordHash, "another long password")));

  const dup = runCli(["merchant", "create", "--name", "Acme 2", "--email", "owner@acme.ng", "--password", "a long password", "--json"], dataDir);
  assert.equal(dup.status, 1);
  assert.match(dup.stderr, /already exists/);
  const bad = runCli(["merchant", "create", "--name", "", "--email", "nope", "--password", "x"], dataDir);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /name .*\n.*email .*\n.*password must be 8 to 200 characters/);
  const unknown = runCli(["user", "reset-password", "--email", "ghost@acme.ng", "--password", "a long password"], dataDir);
  assert.match(unknown.stderr, /No user with e-mail ghost@acme.ng/);
});

test("--help lists the three commands", () => {
  const r = runCli(["--help"], dataDir);
  assert.equal(r.status, 0);
  for (const c of ["merchant create", "keys roll", "user reset-password"]) assert.ok(r.stdout.includes(c), c);
});
