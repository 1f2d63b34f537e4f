// `owo db backup` / `db restore` as an operator runs them: a backup taken while the app takes payments, restored into
// an empty folder, and an Owo started on the restore answers every payment it had acknowledged before the backup.
// dialect: sqlite only — it backs up the SQLite file (PostgreSQL deployments use pg_dump, /docs/operations).
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import Database from "better-sqlite3";
import { eventually } from "../testing/eventually";
import { call, tokenFor } from "../testing/harness";
import { startInitiating, transferBody, ussdBody, type InitiatingMerchant } from "../testing/initiation";
import { runCliBeside, spawnOwo } from "../testing/processes";

let sandbox: InitiatingMerchant;
let work: string;
let backup: string;
const passphraseFile = () => join(work, "passphrase");
const acknowledgedBeforeBackup: string[] = [];

before(async () => {
  sandbox = await startInitiating();
  work = mkdtempSync(join(tmpdir(), "owo-backup-test-"));
  writeFileSync(passphraseFile(), "correct horse battery staple\n");
  backup = join(work, "owo.backup");
});
after(async () => {
  await sandbox.owo.stop();
  rmSync(work, { recursive: true, force: true });
});

type Restored = {
  integrity: string;
  secretsOpen: boolean;
  verified: boolean;
  payments: number;
  ledger: { ok: boolean; entries?: number; fault?: { reason: string } };
};

const restoreInto = (folder: string, archive = backup, passphrase = passphraseFile()) =>
  runCliBeside(["db", "restore", "--from", archive, "--passphrase-file", passphrase, "--json"], join(folder, "owo.db"));

test("a backup taken under write load restores into an empty folder with every payment acknowledged before it", async () => {
  const { owo, merchant, token } = sandbox;
  let writing = true;
  let acknowledged = 0;
  const writer = async () => {
    while (writing) {
      const body = ussdBody(merchant.publicKey);
      const res = await call(owo, "POST", "/api/v2/payments/initiates", { token, body });
      assert.equal(res.status, 200, res.text);
      acknowledged++;
      if (!backupStarted) acknowledgedBeforeBackup.push(String(body.paymentReference));
    }
  };
  // Money that arrived, so the backup holds books for the restore to recompute.
  const paid = transferBody(merchant.publicKey);
  assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token, body: paid })).status, 200);
  const simulated = await call(owo, "POST", `/api/v2/sandbox/payments/${String(paid.paymentReference)}/simulate`, {
    token,
    body: { outcome: "pay" },
  });
  assert.equal(simulated.status, 200, simulated.text);
  let backupStarted = false;
  const writers = [writer(), writer(), writer()];
  await eventually("40 writes acknowledged before the backup starts", () => acknowledged >= 40, 60_000);
  backupStarted = true;
  const atStart = acknowledged;
  const made = await runCliBeside(["db", "backup", "--to", backup, "--passphrase-file", passphraseFile(), "--json"], owo.databaseUrl);
  const duringBackup = acknowledged - atStart;
  writing = false;
  await Promise.all(writers);
  assert.equal(made.status, 0, made.stderr + made.stdout);
  assert.ok(duringBackup > 0, "the app kept acknowledging payments while the backup ran");
  const report = JSON.parse(made.stdout) as { payments: number; bytes: number };
  assert.ok(report.payments >= acknowledgedBeforeBackup.length);
  assert.doesNotMatch(readFileSync(backup).toString("latin1"), /SQLite format 3|payments|owo-test/, "the archive is sealed");

  const folder = join(work, "restored");
  const restored = await restoreInto(folder);
  assert.equal(restored.status, 0, restored.stderr + restored.stdout);
  const r = JSON.parse(restored.stdout) as Restored;
  assert.deepEqual([r.integrity, r.secretsOpen, r.verified, r.payments], ["ok", true, true, report.payments]);
  assert.ok(r.ledger.ok && (r.ledger.entries ?? 0) >= 1, `the restored books were recomputed: ${JSON.stringify(r.ledger)}`);
  const files = readdirSync(folder).filter((f) => !/-(wal|shm)$/.test(f));
  assert.deepEqual(files.sort(), ["auth-secret", "master-key", "owo.db", "sandbox-bank-secret"]);
  assert.equal(readFileSync(join(folder, "master-key"), "utf8"), readFileSync(join(owo.dataDir, "master-key"), "utf8"));
  // One transaction per initiation: every restored payment has its first event, none half-written.
  const db = new Database(join(folder, "owo.db"), { readonly: true });
  const orphans = db
    .prepare("select count(*) from payments p where not exists (select 1 from payment_events e where e.payment_id = p.id)")
    .pluck()
    .get();
  db.close();
  assert.equal(orphans, 0);

  const instance = await spawnOwo(join(folder, "owo.db"));
  try {
    const again = { url: instance.url };
    const restoredToken = await tokenFor(again, merchant);
    for (const ref of acknowledgedBeforeBackup) {
      const verify = await call(again, "GET", `/api/v3/payments/query/${ref}`, { token: restoredToken });
      assert.equal(verify.status, 200, `${ref}: ${verify.text}`);
    }
  } finally {
    instance.child.kill("SIGTERM");
    await instance.exited;
  }
});

test("a wrong passphrase or a changed byte is refused and leaves the folder empty; a folder in use is refused", async () => {
  const wrong = join(work, "wrong-passphrase");
  writeFileSync(wrong, "not the passphrase at all\n");
  const folder = join(work, "refused");
  const refused = await restoreInto(folder, backup, wrong);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /does not open with this passphrase/);
  assert.deepEqual(readdirSync(folder), []);

  const bytes = readFileSync(backup);
  const at = bytes.length - 100;
  bytes[at] = (bytes[at] ?? 0) ^ 1;
  const changed = join(work, "changed.backup");
  writeFileSync(changed, bytes);
  const tampered = await restoreInto(folder, changed);
  assert.equal(tampered.status, 1);
  assert.match(tampered.stderr, /does not open with this passphrase \(or it was changed/);
  assert.deepEqual(readdirSync(folder), []);

  const inUse = await restoreInto(sandbox.owo.dataDir);
  assert.equal(inUse.status, 1);
  assert.match(inUse.stderr, /wants an empty data folder; these exist: .*owo\.db/);

  const short = join(work, "short");
  writeFileSync(short, "short\n");
  const weak = await runCliBeside(["db", "backup", "--to", join(work, "weak.backup"), "--passphrase-file", short], sandbox.owo.databaseUrl);
  assert.equal(weak.status, 1);
  assert.match(weak.stderr, /at least 12 characters/);
});

test("a backup whose books were edited behind the ledger's back restores, and is reported bad with the fault", async () => {
  // A copy restored from the good backup, then a posting changed with the database's own guard dropped: what a
  // hand-edited or corrupted file looks like.
  const edited = join(work, "edited");
  assert.equal((await restoreInto(edited)).status, 0);
  const db = new Database(join(edited, "owo.db"));
  db.exec("DROP TRIGGER ledger_postings_no_update");
  assert.equal(
    db.prepare("UPDATE ledger_postings SET amount_kobo = amount_kobo + 100 WHERE id = (SELECT min(id) FROM ledger_postings)").run().changes,
    1,
  );
  db.close();
  const editedBackup = join(work, "edited.backup");
  const made = await runCliBeside(
    ["db", "backup", "--to", editedBackup, "--passphrase-file", passphraseFile(), "--json"],
    join(edited, "owo.db"),
  );
  assert.equal(made.status, 0, made.stderr);

  const restored = await restoreInto(join(work, "edited-restored"), editedBackup);
  assert.equal(restored.status, 1, restored.stdout);
  const r = JSON.parse(restored.stdout) as Restored;
  assert.equal(r.integrity, "ok", "the file itself is sound SQLite");
  assert.equal(r.verified, false);
  assert.equal(r.ledger.ok, false);
  assert.ok(r.ledger.fault?.reason, "the fault is named");
});
