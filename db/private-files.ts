// The data folder holds customers' names and phones, sealed credentials and the keys that open them: nobody but the
// account Owo runs as may read any of it, whatever the umask, on creation and again at every start.
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { parse, resolve } from "node:path";

export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;

const STICKY = 0o1000;

/**
 * A folder others live in too: the filesystem's root, a sticky one such as /tmp, or one holding folders (a home, /var):
 * Owo's own holds files only. Taking such a folder from everyone else (a database put straight in /tmp, in /, in
 * /var) would break the machine, not protect the data; its files are made owner-only all the same.
 */
function othersLiveIn(dir: string): boolean {
  const full = resolve(dir);
  if (full === parse(full).root || (statSync(full).mode & STICKY) !== 0) return true;
  return readdirSync(full, { withFileTypes: true }).some((entry) => entry.isDirectory());
}

/** Creates Owo's data folder owner-only, or makes an existing one so again, unless others live in it. */
export function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER });
  if (!othersLiveIn(dir)) chmodSync(dir, PRIVATE_FOLDER);
}

/**
 * A database's folder: created owner-only when missing. An existing one may be anyone's (DATABASE_URL names any path),
 * so its mode is left alone; the database's own files are made owner-only (privateDatabaseFiles).
 */
export function databaseFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER });
}

/** A SQLite database and the files SQLite keeps beside it (its WAL and shared memory take the database's mode). */
export function privateDatabaseFiles(path: string): void {
  // Run-time files, never part of the build: Next's file tracer is told not to follow them.
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`])
    if (existsSync(/* turbopackIgnore: true */ file)) chmodSync(/* turbopackIgnore: true */ file, PRIVATE_FILE);
}
