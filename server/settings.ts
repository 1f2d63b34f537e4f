// The process's settings: the environment as declared in environment.ts (API.md "Settings"), validated once, with
// what follows from it; generated secrets live in the data folder.
import "server-only";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { PRIVATE_FILE, privateFolder } from "../db/private-files";
import { dirname, join, resolve } from "node:path";
import { databaseTargetOf, describeDatabase } from "../db/location";
import { parseEnvironment, processEnvironment, type Environment } from "../environment";

export { SettingsError } from "../environment";

/** What the process runs with: the environment as declared, the public URL, the data folder and the secrets. */
export type Settings = Omit<
  Environment,
  "givenPublicUrl" | "givenDataDir" | "givenAuthSecret" | "givenMasterKey" | "givenSandboxBankSecret"
> & {
  publicUrl: string;
  /** The database, fit for a log line (no password). */
  database: string;
  dataDir: string;
  authSecret: string;
  masterKey: Buffer;
  sandboxBankSecret: string;
};

/** Reads a generated secret from the data folder, creating it (owner-only) on first start. */
function generatedSecret(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name);
  privateFolder(dataDir);
  if (existsSync(file)) {
    chmodSync(file, PRIVATE_FILE);
    return readFileSync(file, "utf8").trim();
  }
  const value = make();
  writeFileSync(file, value + "\n", { mode: PRIVATE_FILE, flag: "wx" });
  chmodSync(file, PRIVATE_FILE);
  return value;
}

export function parseSettings(env: Record<string, string | undefined>): Settings {
  return settingsOf(parseEnvironment(env));
}

function settingsOf(environment: Environment): Settings {
  const { givenPublicUrl, givenDataDir, givenAuthSecret, givenMasterKey, givenSandboxBankSecret, ...e } = environment;
  const target = databaseTargetOf(e.databaseUrl);
  // Generated secrets live beside a SQLite file; on PostgreSQL in OWO_DATA_DIR (several machines must set AUTH_SECRET
  // and OWO_MASTER_KEY alike instead, README "Running on PostgreSQL"). A run-time folder: Next's file tracer must not follow it.
  const dataDir =
    target.dialect === "postgres" || target.path === ":memory:"
      ? resolve(/* turbopackIgnore: true */ givenDataDir ?? "data")
      : dirname(target.path);
  const hex32 = () => randomBytes(32).toString("hex");
  return {
    ...e,
    publicUrl: (givenPublicUrl ?? `http://localhost:${e.port}`).replace(/\/+$/, ""),
    database: describeDatabase(target),
    dataDir,
    authSecret: givenAuthSecret ?? generatedSecret(dataDir, "auth-secret", hex32),
    masterKey: Buffer.from(givenMasterKey ?? generatedSecret(dataDir, "master-key", hex32), "hex"),
    sandboxBankSecret: givenSandboxBankSecret ?? generatedSecret(dataDir, "sandbox-bank-secret", hex32),
  };
}

const holder = globalThis as unknown as { __owoSettings?: Settings };

/** The process's settings; shared with Next's bundled copy of this module through globalThis. */
export function settings(): Settings {
  holder.__owoSettings ??= settingsOf(processEnvironment());
  return holder.__owoSettings;
}
