// Which database DATABASE_URL names (API.md "Settings"): a SQLite file path, resolved against the working folder, or
// a PostgreSQL URL. A URL is never taken for a path: any other scheme is refused, so a typo cannot create a file
// called "mysql:". The settings read it from here, so db/ needs nothing from server/.
import { resolve } from "node:path";

export const DEFAULT_DATABASE_URL = "./data/owo.db";

export type DatabaseTarget = { dialect: "sqlite"; path: string } | { dialect: "postgres"; url: string };

export class UnusableDatabaseUrl extends Error {}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

export function databaseTargetOf(databaseUrl: string | undefined): DatabaseTarget {
  const url = databaseUrl || DEFAULT_DATABASE_URL;
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  // The database is the operator's file at run time, not part of the build: Next's file tracer is told not to follow it.
  if (scheme === undefined) return { dialect: "sqlite", path: url === ":memory:" ? url : resolve(/* turbopackIgnore: true */ url) };
  if (scheme !== "postgres" && scheme !== "postgresql") {
    throw new UnusableDatabaseUrl(`DATABASE_URL: ${scheme}:// is not a database Owo can use; give a SQLite file path or a postgres:// URL`);
  }
  if (!URL.canParse(url) || new URL(url).hostname === "")
    throw new UnusableDatabaseUrl("DATABASE_URL: not a valid postgres:// URL (postgres://user:password@host:5432/database)");
  return { dialect: "postgres", url };
}

/** What a log line may say of the database: the file, or the URL without its password. */
export function describeDatabase(target: DatabaseTarget): string {
  if (target.dialect === "sqlite") return target.path;
  const url = new URL(target.url);
  if (url.password) url.password = "redacted";
  return url.toString();
}

/** The SQLite file DATABASE_URL names (tools that open the file themselves); a PostgreSQL URL has none. */
export function databasePathOf(databaseUrl: string | undefined): string {
  const target = databaseTargetOf(databaseUrl);
  if (target.dialect !== "sqlite") throw new UnusableDatabaseUrl("DATABASE_URL: this tool works on a SQLite file; give its path");
  return target.path;
}
