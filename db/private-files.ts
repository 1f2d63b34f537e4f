// The data folder holds customers' names and phones, sealed credentials and the keys that open them: nobody but the
// account Owo runs as may read any of it, whatever the umask, on creation and again at every start.
import { chmodSync, existsSync, mkdirSync } from "node:fs";

export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;

/** Creates `dir` owner-only, or makes an existing one so. */
export function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER });
  chmodSync(dir, PRIVATE_FOLDER);
}

/** A SQLite database and the files SQLite keeps beside it (its WAL and shared memory take the database's mode). */
export function privateDatabaseFiles(path: string): void {
  // Run-time files, never part of the build: Next's file tracer is told not to follow them.
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`])
    if (existsSync(/* turbopackIgnore: true */ file)) chmodSync(/* turbopackIgnore: true */ file, PRIVATE_FILE);
}
