// A SQLite database file as the backup tools see it (server/backups/): copied online while the app writes, and
// checked on its own. Here because db/ alone opens SQLite files directly.
import Database from "better-sqlite3";

/** SQLite's online backup of the live file at `source` into `target` (a new file). */
export async function onlineBackup(source: string, target: string): Promise<void> {
  const db = new Database(source, { fileMustExist: true, timeout: 10_000 });
  try {
    // Each step after the first asks for every page: a write by the app restarts the copy, and a whole-file step
    // then finishes within one read transaction instead of chasing the writes page by page.
    await db.backup(target, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
  } finally {
    db.close();
  }
}

export type FileCheck = { integrity: string; payments: number; migrations: number; sealedSample: string | null };

/** SQLite's integrity check, the payments and migrations it holds, and one sealed secret to try the master key on. */
export function checkSqliteFile(file: string): FileCheck {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get();
    return {
      integrity: String(db.pragma("integrity_check", { simple: true })),
      payments: Number(one("select count(*) from payments")),
      migrations: Number(one("select count(*) from __drizzle_migrations")),
      sealedSample: (one("select secret_enc from signing_secrets limit 1") as string | undefined) ?? null,
    };
  } finally {
    db.close();
  }
}
