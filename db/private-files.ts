// The data folder holds customers' names and phones, sealed credentials and the keys that open them: nobody but the
// account Owo runs as may read any of it, whatever the umask, on creation and again at every start.
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { parse, resolve } from "node:path";

export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;

const STICKY = 0o1000;

/**
 * A folder others live in too: the filesystem's root, a sticky one such as /tmp, one another account owns, or one
 * holding folders (a home, /var; a disk's own lost+found aside, so a data disk mounted for Owo is still Owo's). Taking
 * such a folder from everyone else (a database put straight in /tmp, in /, in /var) would break the machine, not
 * protect the data; the files Owo keeps there are made owner-only all the same.
 */
function othersLiveIn(dir: string): boolean {
  const full = resolve(dir);
  const { mode, uid } = statSync(full);
  if (full === parse(full).root || (mode & STICKY) !== 0) return true;
  if (process.getuid && uid !== process.getuid()) return true;
  return readdirSync(full, { withFileTypes: true }).some((entry) => entry.isDirectory() && entry.name !== "lost+found");
}

/**
 * Creates Owo's data folder (a SQLite database's folder: the generated secrets live beside it) owner-only, or makes an
 * existing one so again at every start, unless others live in it.
 */
export function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER });
  if (!othersLiveIn(dir)) chmodSync(dir, PRIVATE_FOLDER);
}

/** A SQLite database and the files SQLite keeps beside it (its WAL and shared memory take the database's mode). */
export function privateDatabaseFiles(path: string): void {
  // Run-time files, never part of the build: Next's file tracer is told not to follow them.
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`])
    if (existsSync(/* turbopackIgnore: true */ file)) chmodSync(/* turbopackIgnore: true */ file, PRIVATE_FILE);
}
