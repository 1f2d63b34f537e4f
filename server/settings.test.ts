// Settings: defaults serve a local demo; a bad value stops start-up with a message naming it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseSettings, SettingsError } from "./settings";
import { tempDataDir } from "./testing/harness";

test("defaults follow API.md's table, and generated secrets are owner-only files", () => {
  const dir = tempDataDir();
  const s = parseSettings({ DATABASE_URL: join(dir, "owo.db") });
  assert.equal(s.port, 3000);
  assert.equal(s.publicUrl, "http://localhost:3000");
  assert.equal(s.tokenTtlSeconds, 86400);
  assert.equal(s.ussdTtlSeconds, 600);
  assert.equal(s.transferTtlSeconds, 1800);
  assert.equal(s.sweepIntervalSeconds, 15);
  assert.equal(s.rateLimitRps, 50);
  assert.equal(s.rateLimitBurst, 100);
  assert.equal(s.ipRateLimitPerMin, 60);
  assert.equal(s.allowPrivateCallbacks, false);
  assert.equal(s.worker, true);
  assert.equal(s.workerLeaseSeconds, 60);
  assert.equal(s.smtpUrl, null, "no SMTP: mail is kept in the outbox");
  assert.equal(s.mailFrom, "Owo <no-reply@localhost>");
  assert.equal(s.settlementPollMinutes, 60);
  assert.equal(s.settlementGraceDays, 3);
  assert.equal(s.sandboxSettlement, true);
  for (const f of ["auth-secret", "master-key", "sandbox-bank-secret"]) assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600, f);
  assert.deepEqual(parseSettings({ DATABASE_URL: join(dir, "owo.db") }).masterKey, s.masterKey, "generated once, then read back");
  assert.equal(parseSettings({ DATABASE_URL: join(dir, "owo.db"), PORT: "8080" }).publicUrl, "http://localhost:8080");
});

test("a bad value is refused with a message naming the variable", () => {
  for (const [name, value] of [
    ["PORT", "eighty"],
    ["OWO_PUBLIC_URL", "not a url"],
    ["OWO_TOKEN_TTL_SECONDS", "0"],
    ["OWO_WORKER", "maybe"],
    ["OWO_MASTER_KEY", "short"],
    ["OWO_RATE_LIMIT_RPS", "-1"],
    ["OWO_SMTP_URL", "http://mail.example.com"],
    ["OWO_SETTLEMENT_POLL_MINUTES", "0"],
    ["OWO_SETTLEMENT_GRACE_DAYS", "-1"],
    ["OWO_SANDBOX_SETTLEMENT", "daily"],
  ]) {
    assert.throws(
      () => parseSettings({ DATABASE_URL: join(tempDataDir(), "owo.db"), [name as string]: value }),
      (e: unknown) => e instanceof SettingsError && e.message.includes(name as string),
      name,
    );
  }
});

test("DATABASE_URL: a URL is never taken for a file path; one Owo cannot use stops start-up naming it", () => {
  const dir = tempDataDir();
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    for (const url of ["mysql://owo@db/owo", "https://example.com/owo.db", "postgres://"]) {
      assert.throws(
        () => parseSettings({ DATABASE_URL: url }),
        (e: unknown) => e instanceof SettingsError && e.message.includes("DATABASE_URL"),
        url,
      );
    }
    assert.deepEqual(readdirSync(dir), [], "no file or folder was made from a URL");
    // A PostgreSQL URL is a database, never a path; the log names it without its password.
    assert.equal(
      parseSettings({ DATABASE_URL: "postgres://owo:s3cret@db.internal:5432/owo" }).database,
      "postgres://owo:redacted@db.internal:5432/owo",
    );
  } finally {
    process.chdir(cwd);
  }
});

test("the server refuses to start on a DATABASE_URL it cannot use, naming the setting, and makes no file of it", () => {
  for (const url of ["mysql://owo@db/owo", "postgres://owo@127.0.0.1:1/owo"]) {
    const started = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts"], {
      env: { ...process.env, OWO_PAGES: "off", PORT: "0", DATABASE_URL: url },
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(started.status, 1, url);
    assert.match(started.stderr, /DATABASE_URL: /, url);
    assert.equal(existsSync(url.split("/")[0] ?? ""), false, `no ${url.split("/")[0]} folder beside the repo`);
  }
});
