// The operator CLI as an operator runs it: its own process, a real database file.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { tempDataDir } from "../testing/harness";
import { runCli, runCliBeside, databaseIn, spawnDouble, spawnOwo } from "../testing/processes";
import { passwordMatches } from "../auth/passwords";
import { db, rawSqlite as sqlite } from "../../db/client";
import { users } from "../../db/schema";

const dataDir = tempDataDir();
after(() => rmSync(dataDir, { recursive: true, force: true }));

test("merchant create --json prints exactly API.md's fields, and the keys work over HTTP", async () => {
  const r = runCli(
    ["merchant", "create", "--name", "Acme", "--email", "owner@acme.ng", "--password", "a long password", "--json"],
    dataDir,
  );
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

  const owo = await spawnOwo(databaseIn(dataDir));
  try {
    const exchange = (key: string) =>
      fetch(`${owo.url}/api/v2/encrypt/keys`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key }),
      });
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
  process.env.DATABASE_URL = `${dataDir}/owo.db`;
  const user = (await db().select().from(users)).find((u) => u.email === "owner@acme.ng");
  assert.ok(user && (await passwordMatches(user.passwordHash, "another long password")));

  const dup = runCli(
    ["merchant", "create", "--name", "Acme 2", "--email", "owner@acme.ng", "--password", "a long password", "--json"],
    dataDir,
  );
  assert.equal(dup.status, 1);
  assert.match(dup.stderr, /cannot be used to create an account/);
  const bad = runCli(["merchant", "create", "--name", "", "--email", "nope", "--password", "x"], dataDir);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /name .*\n.*email .*\n.*password must be at least 12 characters/);
  const unknown = runCli(["user", "reset-password", "--email", "ghost@acme.ng", "--password", "a long password"], dataDir);
  assert.match(unknown.stderr, /No user with e-mail ghost@acme.ng/);
});

test("merchant list prints each merchant's id, name and owner's address; --json as API.md shows", () => {
  const json = runCli(["merchant", "list", "--json"], dataDir);
  assert.equal(json.status, 0, json.stderr);
  const list = JSON.parse(json.stdout.trim()) as { merchantId: string; name: string; ownerEmail: string }[];
  const acme = list.find((m) => m.name === "Acme");
  assert.deepEqual(Object.keys(acme ?? {}), ["merchantId", "name", "ownerEmail"]);
  assert.match(acme?.merchantId ?? "", /^mch_/);
  assert.equal(acme?.ownerEmail, "owner@acme.ng");
  const human = runCli(["merchant", "list"], dataDir);
  assert.ok(human.stdout.includes(`${acme?.merchantId}  Acme  owner@acme.ng`), human.stdout);
});

test("--help lists the three commands", () => {
  const r = runCli(["--help"], dataDir);
  assert.equal(r.status, 0);
  for (const c of ["merchant create", "keys roll", "user reset-password"]) assert.ok(r.stdout.includes(c), c);
});

test("keys create --mode live is refused until a provider is connected; provider add tries the credentials first, prints API.md's JSON and warns of an unreachable notice URL", async () => {
  const paystack = await spawnDouble("paystack", { "secret-key": "sk_test_0123456789abcdef" });
  after(() => paystack.stop());
  const m = JSON.parse(
    runCli(["merchant", "create", "--name", "Live Co", "--email", "owner@live.ng", "--password", "a long password", "--json"], dataDir)
      .stdout.trim()
      .split("\n")
      .pop() ?? "",
  );
  const early = runCli(["keys", "create", "--merchant", m.merchantId, "--mode", "live", "--json"], dataDir);
  assert.equal(early.status, 1);
  assert.match(early.stderr, /No bank-side provider is connected/);
  // Under --json the refusal is JSON on stdout too, and no key.
  assert.deepEqual(Object.keys(JSON.parse(early.stdout.trim())), ["ok", "error"]);
  assert.doesNotMatch(early.stdout, /_live_/);

  const missing = runCli(
    ["provider", "add", "flutterwave", "--merchant", m.merchantId, "--secret-key", "FLWSECK_TEST-abcdefgh", "--json"],
    dataDir,
  );
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /secretHash is required for flutterwave/);
  const unknown = runCli(["provider", "add", "stripe", "--merchant", m.merchantId, "--secret-key", "sk_test_abcdefgh", "--json"], dataDir);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /provider must be one of paystack, flutterwave, seerbit/);

  /** `owo provider add paystack` for this merchant, as an operator types it (`--json` last). */
  const addPaystack = (secretKey: string, baseUrl: string, ...more: string[]) =>
    runCli(
      ["provider", "add", "paystack", "--merchant", m.merchantId, "--secret-key", secretKey, "--base-url", baseUrl, ...more, "--json"],
      dataDir,
    );
  const wrong = addPaystack("sk_test_not-the-right-key", paystack.url);
  assert.equal(wrong.status, 1);
  assert.match(wrong.stderr, /secretKey paystack refused the credentials \(GET \/balance: .*Invalid key.*\); nothing was saved/);
  const away = addPaystack("sk_test_0123456789abcdef", "http://127.0.0.1:9");
  assert.equal(away.status, 1);
  assert.match(away.stderr, /Could not reach paystack at http:\/\/127.0.0.1:9 to check the credentials .*nothing was saved/);
  assert.match(runCli(["keys", "create", "--merchant", m.merchantId, "--mode", "live", "--json"], dataDir).stderr, /No bank-side provider/);

  const added = addPaystack("sk_test_0123456789abcdef", paystack.url, "--priority", "2");
  assert.equal(added.status, 0, added.stderr);
  const out = JSON.parse(added.stdout.trim());
  assert.deepEqual(Object.keys(out), ["providerId", "provider", "noticeUrl"]);
  assert.match(out.providerId, /^prv_[0-9a-z]{20}$/);
  assert.equal(out.provider, "paystack");
  assert.equal(out.noticeUrl, `http://localhost:3000/api/v2/providers/${out.providerId}/notices`);
  assert.match(added.stderr, /warning: .*loopback address: a provider cannot reach it/);

  const keys = runCli(["keys", "create", "--merchant", m.merchantId, "--mode", "live", "--json"], dataDir);
  assert.equal(keys.status, 0, keys.stderr);
  const live = JSON.parse(keys.stdout.trim());
  assert.deepEqual(Object.keys(live), ["publicKey", "secretKey", "webhookSecret"]);
  assert.match(live.publicKey, /^pk_live_/);
  assert.match(live.secretKey, /^sk_live_/);
  assert.match(live.webhookSecret, /^whsec_/);
  const again = runCli(["keys", "create", "--merchant", m.merchantId, "--mode", "live", "--json"], dataDir);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /use keys roll --mode live/);
});

test("provider credentials are stored sealed: the database holds only their last 4 characters in clear", async () => {
  process.env.DATABASE_URL = `${dataDir}/owo.db`;
  const rows = sqlite().prepare("select * from provider_accounts").all() as Record<string, unknown>[];
  assert.ok(rows.length >= 1);
  const dump = JSON.stringify(rows);
  assert.ok(!dump.includes("sk_test_0123456789abcdef"), "the secret key is not in clear");
  assert.ok(dump.includes("cdef"), "its last 4 are");
});

test("provider fees refuses a bad value in one line naming the flag as typed, as JSON under --json, never a stack trace", async () => {
  const fees = (...args: string[]) => runCliBeside(["provider", "fees", ...args], databaseIn(dataDir));
  const cases: [string[], string][] = [
    // A negative number is the flag's value, judged by its rule (parseArgs alone takes "-1" for a flag).
    [["--provider", "prv_x", "--percent", "-1"], '--percent must be a percentage from 0 to 100 with at most 2 decimals, e.g. "1.5"'],
    [["--provider", "prv_x", "--percent", "101"], '--percent must be a percentage from 0 to 100 with at most 2 decimals, e.g. "1.5"'],
    [["--provider", "prv_x", "--percent", "1.5", "--cap", "abc"], '--cap must be naira with at most 2 decimals, e.g. "2000"'],
    [["--provider", "prv_x", "--percent", "1.5", "--flat", "1.234"], '--flat must be naira with at most 2 decimals, e.g. "100"'],
    [
      ["--provider", "prv_x", "--percent", "1.5", "--flat-waived-under", "-5"],
      '--flat-waived-under must be naira with at most 2 decimals, e.g. "2500"',
    ],
    [
      ["--provider", "prv_x", "--percent", "x", "--cap", "abc"],
      '--percent must be a percentage from 0 to 100 with at most 2 decimals, e.g. "1.5"; --cap must be naira with at most 2 decimals, e.g. "2000"',
    ],
    [["--provider", "prv_x"], '--percent is required: a percentage with at most 2 decimals, e.g. "1.5"'],
    [["--percent", "1.5"], "--provider <prv_…> is required: the provider account whose fees these are"],
    [["--provider", "--percent", "1.5"], "--provider needs a value"],
    [["--provider", "prv_x", "--percent"], "--percent needs a value"],
    [["--provider", "prv_nosuchaccount000000", "--percent", "1.5"], "No provider account prv_nosuchaccount000000"],
  ];
  for (const [args, message] of cases) {
    const [human, json] = await Promise.all([fees(...args), fees(...args, "--json")]);
    assert.equal(human.status, 1, args.join(" "));
    assert.equal(human.stderr, `error: ${message}\n`, args.join(" "));
    assert.equal(human.stdout, "");
    assert.equal(json.status, 1, args.join(" "));
    assert.equal(json.stdout.trim().split("\n").length, 1, json.stdout);
    const out = JSON.parse(json.stdout);
    assert.deepEqual([out.ok, out.error.message], [false, message], args.join(" "));
  }
});

test("every refusal is JSON on stdout under --json: a parseArgs refusal, an unknown flag, a core error's field list", () => {
  const unknownFlag = runCli(["merchant", "list", "--bogus", "--json"], dataDir);
  assert.equal(unknownFlag.status, 1);
  assert.deepEqual(JSON.parse(unknownFlag.stdout).ok, false);
  assert.match(JSON.parse(unknownFlag.stdout).error.message, /^Unknown option '--bogus'/);
  assert.doesNotMatch(unknownFlag.stderr, /TypeError|ERR_PARSE_ARGS|\n\s+at /);

  const fields = runCli(["merchant", "create", "--name", "", "--email", "nope", "--password", "x", "--json"], dataDir);
  assert.equal(fields.status, 1);
  const out = JSON.parse(fields.stdout);
  assert.equal(out.error.code, "S5");
  assert.deepEqual(
    out.error.errors.map((e: { field: string }) => e.field),
    ["name", "email", "password"],
  );
});
