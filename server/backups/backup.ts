// `owo db backup` and `owo db restore` (API.md "Operator CLI", /docs/operations): a consistent copy of a live SQLite
// database taken with SQLite's online backup while the app keeps writing, sealed with the master key, auth secret
// and sandbox bank secret; restored only into an empty data folder, then checked before it is called good.
// PostgreSQL deployments use pg_dump instead (the recipe is in /docs/operations).
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { databaseTargetOf } from "../../db/location";
import { settings } from "../settings";
import { BackupRefused, passphraseFrom, readArchive, writeArchive, type Manifest } from "./archive";

export { BackupRefused } from "./archive";

/** The generated secrets' files beside a SQLite database (server/settings.ts). */
const SECRET_FILES = { masterKey: "master-key", authSecret: "auth-secret", sandboxBankSecret: "sandbox-bank-secret" } as const;

function sqlitePath(verb: string): string {
  const target = databaseTargetOf(process.env.DATABASE_URL);
  if (target.dialect !== "sqlite")
    throw new BackupRefused(
      `db ${verb} works on a SQLite database; on PostgreSQL use pg_dump (/docs/operations), and keep OWO_MASTER_KEY with it`,
    );
  return target.path;
}

function passphrase(file: string | undefined): string {
  if (!file) throw new BackupRefused("--passphrase-file <file> is required: the backup is sealed with the passphrase on its first line");
  return passphraseFrom(readFileSync(file, "utf8"), file);
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

type Checked = { integrity: string; payments: number; migrations: number };

function check(file: string): Checked {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = String(db.pragma("integrity_check", { simple: true }));
    const count = (sql: string) => Number(db.prepare(sql).pluck().get());
    return { integrity, payments: count("select count(*) from payments"), migrations: count("select count(*) from __drizzle_migrations") };
  } finally {
    db.close();
  }
}

export type BackupReport = { to: string; bytes: number; payments: number; createdAt: string };

export async function takeBackup(to: string | undefined, passphraseFile: string | undefined): Promise<BackupReport> {
  if (!to) throw new BackupRefused("--to <file> is required");
  const path = sqlitePath("backup");
  if (!existsSync(path)) throw new BackupRefused(`${path} does not exist: nothing to back up`);
  if (existsSync(to)) throw new BackupRefused(`${to} exists already; name a new file`);
  const sealedWith = passphrase(passphraseFile);
  const s = settings();
  const work = mkdtempSync(join(tmpdir(), "owo-backup-"));
  const snapshot = join(work, "owo.db");
  try {
    const source = new Database(path, { fileMustExist: true, timeout: 10_000 });
    try {
      // Each step after the first asks for every page: a write by the app restarts the copy, and a whole-file step
      // then finishes within one read transaction instead of chasing the writes page by page.
      await source.backup(snapshot, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
    } finally {
      source.close();
    }
    const checked = check(snapshot);
    if (checked.integrity !== "ok") throw new BackupRefused(`The copy failed SQLite's integrity check: ${checked.integrity}`);
    const manifest: Manifest = {
      createdAt: new Date().toISOString(),
      secrets: { masterKey: s.masterKey.toString("hex"), authSecret: s.authSecret, sandboxBankSecret: s.sandboxBankSecret },
      database: { dialect: "sqlite", bytes: statSync(snapshot).size, sha256: await sha256Of(snapshot) },
    };
    await writeArchive(to, sealedWith, manifest, snapshot);
    return { to, bytes: statSync(to).size, payments: checked.payments, createdAt: manifest.createdAt };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export type RestoreReport = Checked & { restored: string; backupCreatedAt: string; secretsOpen: boolean };

export async function restoreBackup(from: string | undefined, passphraseFile: string | undefined): Promise<RestoreReport> {
  if (!from) throw new BackupRefused("--from <file> is required");
  const path = sqlitePath("restore");
  const dataDir = dirname(path);
  const occupied = [path, `${path}-wal`, ...Object.values(SECRET_FILES).map((f) => join(dataDir, f))].filter((f) => existsSync(f));
  if (occupied.length > 0) throw new BackupRefused(`db restore wants an empty data folder; these exist: ${occupied.join(", ")}`);
  const opened = passphrase(passphraseFile);
  mkdirSync(dataDir, { recursive: true });
  let manifest: Manifest;
  try {
    manifest = await readArchive(from, opened, path);
    const given = process.env.OWO_MASTER_KEY;
    if (given && given !== manifest.secrets.masterKey)
      throw new BackupRefused("OWO_MASTER_KEY is set and differs from the backup's master key: unset it, or set it to the backup's");
  } catch (err) {
    rmSync(path, { force: true });
    throw err;
  }
  for (const [name, file] of Object.entries(SECRET_FILES))
    writeFileSync(join(dataDir, file), manifest.secrets[name as keyof typeof SECRET_FILES] + "\n", { mode: 0o600, flag: "wx" });
  const checked = check(path);
  return { restored: path, backupCreatedAt: manifest.createdAt, ...checked, secretsOpen: await sealedSecretsOpen(path) };
}

/** The restored master key opens a sealed signing secret (true with none sealed yet): the pair belongs together. */
async function sealedSecretsOpen(path: string): Promise<boolean> {
  const { unseal } = await import("../auth/master-key");
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const sealed = db.prepare("select secret_enc from signing_secrets limit 1").pluck().get() as string | undefined;
    if (sealed === undefined) return true;
    unseal(sealed);
    return true;
  } catch {
    return false;
  } finally {
    db.close();
  }
}
