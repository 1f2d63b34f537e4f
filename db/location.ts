// Where the database file is: DATABASE_URL (API.md "Settings"), resolved against the working folder. The settings
// read it from here, so db/ needs nothing from server/.
import { resolve } from "node:path";

export const DEFAULT_DATABASE_URL = "./data/owo.db";

export function databasePathOf(databaseUrl: string | undefined): string {
  const url = databaseUrl || DEFAULT_DATABASE_URL;
  return url === ":memory:" ? url : resolve(url);
}

/** This process's database, from its environment. */
export function databasePath(): string {
  return databasePathOf(process.env.DATABASE_URL);
}
