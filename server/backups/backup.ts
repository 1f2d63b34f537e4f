// `owo db backup` and `owo db restore` (API.md "Operator CLI", /docs/operations): a consistent copy of a live SQLite
// database taken with SQLite's online backup while the app keeps writing, sealed with the master key, auth secret
// and sandbox bank secret; restored only into an empty data folder, then checked before it is called good.
// PostgreSQL deployments use pg_dump instead (the recipe is in /docs/operations).
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { databaseTargetOf } from "../../db/location";
import { environment } from "../../environment";
import { checkSqliteFile, onlineBackup } from "../../db/sqlite-file";
import { settings } from "../settings";
import { BackupRefused, passphraseFrom, readArchive, writeArchive, type Manifest } from "./archive";

export { BackupRefused } from "./archive";

/** The generated secrets' files beside a SQLite database (server/settings.ts). */
const SECRET_FILES = { masterKey: "master-key", authSecret: "auth-secret", sandboxBankSecret: "sandbox-bank-secret" } as const;

function sqlitePath(verb: string): string {
  const target = databaseTargetOf(environment("databaseUrl"));
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
    await onlineBackup(path, snapshot);
    const checked = checkSqliteFile(snapshot);
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

export type RestoreReport = {
  restored: string;
  backupCreatedAt: string;
  integrity: string;
  payments: number;
  migrations: number;
  secretsOpen: boolean;
};

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
    const given = environment("givenMasterKey");
    if (given && given !== manifest.secrets.masterKey)
      throw new BackupRefused("OWO_MASTER_KEY is set and differs from the backup's master key: unset it, or set it to the backup's");
  } catch (err) {
    rmSync(path, { force: true });
    throw err;
  }
  for (const [name, file] of Object.entries(SECRET_FILES))
    writeFileSync(join(dataDir, file), manifest.secrets[name as keyof typeof SECRET_FILES] + "\n", { mode: 0o600, flag: "wx" });
  const { integrity, payments, migrations, sealedSample } = checkSqliteFile(path);
  return { restored: path, backupCreatedAt: manifest.createdAt, integrity, payments, migrations, secretsOpen: await opens(sealedSample) };
}

/** The restored master key opens a sealed signing secret (true with none sealed yet): the pair belongs together. */
async function opens(sealed: string | null): Promise<boolean> {
  if (sealed === null) return true;
  const { unseal } = await import("../auth/master-key");
  try {
    unseal(sealed);
    return true;
  } catch {
    return false;
  }
}
