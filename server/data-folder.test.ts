// The data folder, as an operator's machine leaves it (umask 022): the database, its WAL and the generated secrets are
// owner-only when Owo creates them, and made so again at start when someone loosened them.
// dialect: sqlite only — it is about the SQLite file and the folder it lives in.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { spawnOwo } from "./testing/processes";

const modeOf = (path: string) => statSync(path).mode & 0o777;

test("Owo's data folder and every file in it are private on creation and again on every start", async () => {
  const previous = process.umask(0o022);
  const root = mkdtempSync(join(tmpdir(), "owo-private-"));
  const dataDir = join(root, "data");
  try {
    const env = { OWO_DATA_DIR: dataDir, OWO_WORKER: "off" };
    let owo = await spawnOwo(join(dataDir, "owo.db"), env);
    const files = () => readdirSync(dataDir).map((f) => join(dataDir, f));
    assert.equal(modeOf(dataDir).toString(8), "700", "the folder Owo created");
    assert.ok(
      files().some((f) => f.endsWith("owo.db-wal")),
      "the WAL is there to check too",
    );
    for (const file of files()) assert.equal(modeOf(file).toString(8), "600", file);
    owo.child.kill("SIGTERM");
    await owo.exited;

    chmodSync(dataDir, 0o755);
    for (const file of files()) chmodSync(file, 0o644);
    // As a production start has it: the secrets from the environment (no secret file is written), and the data folder
    // a disk of its own, with its lost+found.
    mkdirSync(join(dataDir, "lost+found"));
    const secrets = { AUTH_SECRET: "a".repeat(64), OWO_MASTER_KEY: "b".repeat(64), OWO_SANDBOX_BANK_SECRET: "c".repeat(64) };
    owo = await spawnOwo(join(dataDir, "owo.db"), { ...env, ...secrets });
    assert.equal(modeOf(dataDir).toString(8), "700", "made private again at start");
    // The database's files; the secret files of the first start are not read now, and so left as they are.
    for (const file of files().filter((f) => f.includes("owo.db"))) assert.equal(modeOf(file).toString(8), "600", file);
    owo.child.kill("SIGTERM");
    await owo.exited;
  } finally {
    process.umask(previous);
    rmSync(root, { recursive: true, force: true });
  }
});

test("a database put in a folder others live in (sticky as /tmp, or holding folders as /var) leaves it as it was", async () => {
  const previous = process.umask(0o022);
  const root = mkdtempSync(join(tmpdir(), "owo-shared-"));
  const sticky = join(root, "tmp");
  const system = join(root, "var");
  mkdirSync(sticky);
  chmodSync(sticky, 0o1777);
  mkdirSync(join(system, "log"), { recursive: true });
  chmodSync(system, 0o755);
  try {
    for (const folder of [sticky, system]) {
      const before = (statSync(folder).mode & 0o7777).toString(8);
      const owo = await spawnOwo(join(folder, "owo.db"), { OWO_WORKER: "off" });
      owo.child.kill("SIGTERM");
      await owo.exited;
      assert.equal((statSync(folder).mode & 0o7777).toString(8), before, `${folder} keeps its mode`);
      // The database and the secrets beside it are still nobody else's.
      for (const file of readdirSync(folder).filter((f) => f !== "log")) assert.equal(modeOf(join(folder, file)).toString(8), "600", file);
    }
  } finally {
    process.umask(previous);
    rmSync(root, { recursive: true, force: true });
  }
});
