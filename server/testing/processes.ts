// Tests that need a real process (signals, crashes, the CLI) spawn the production entry points.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { eventually } from "./eventually";
import { freePort, TEST_ENV } from "./harness";

/** A spawned process: its combined output so far, and its exit code once it has exited (null when killed by a signal). */
export type Spawned = { child: ChildProcess; output: () => string; exited: Promise<number | null> };
export type OwoProcess = Spawned & { url: string };

const TSX = ["--import", "tsx"];

function spawnEntry(entry: string, env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, [...TSX, entry], {
    env: { ...process.env, ...TEST_ENV, LOG_LEVEL: "info", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/**
 * The production server as its own process, API-only (no Next build needed), on DATABASE_URL `databaseUrl` (a SQLite
 * file's path or a postgres:// URL); several of them on one database are the instances of one deployment.
 */
export async function spawnOwo(databaseUrl: string, env: Record<string, string> = {}, port?: number): Promise<OwoProcess> {
  const p = port ?? (await freePort());
  const url = `http://127.0.0.1:${p}`;
  const owo = {
    ...spawnEntry("server/main.ts", { OWO_PAGES: "off", DATABASE_URL: databaseUrl, PORT: String(p), OWO_PUBLIC_URL: url, ...env }),
    url,
  };
  const healthy = async () => {
    try {
      return (await fetch(`${url}/api/health`)).status === 200;
    } catch {
      return false; // not listening yet
    }
  };
  // Generous: a loaded two-core machine compiling with tsx can take a minute to start a process.
  await started("owo", owo, healthy, 120_000);
  return owo;
}

/** Waits until `ready`; if `spawned` exits first or `timeoutMs` passes, it is killed and the test fails with its output. */
async function started(name: string, spawned: Spawned, ready: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const exitedOrReady = async () => {
    if (spawned.child.exitCode !== null) throw new Error(`it exited with ${spawned.child.exitCode}`);
    return ready();
  };
  try {
    await eventually(`${name} to start`, exitedOrReady, timeoutMs);
  } catch (e) {
    spawned.child.kill("SIGKILL");
    throw new Error(`${name} did not start (${(e as Error).message}):\n${spawned.output()}`);
  }
}

/**
 * The database a test's other processes share, as DATABASE_URL names it: the SQLite file its data folder holds, or on
 * the PostgreSQL pass of the test run the database startOwo made for this test file.
 */
export function databaseIn(dataDir: string): string {
  return process.env.OWO_TEST_POSTGRES_URL && process.env.DATABASE_URL ? process.env.DATABASE_URL : join(dataDir, "owo.db");
}

/** `npm run worker` (callbacks and mail apart from the servers) on `databaseUrl`, once it has logged that it runs. */
export async function spawnWorker(databaseUrl: string, env: Record<string, string> = {}): Promise<Spawned> {
  const worker = spawnEntry("server/webhooks/worker-main.ts", { DATABASE_URL: databaseUrl, ...env });
  await started("the worker", worker, () => worker.output().includes("callback worker started"), 20_000);
  return worker;
}

export function runCli(args: string[], dataDir: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...TSX, "server/cli/owo.ts", ...args], {
    env: { ...process.env, ...TEST_ENV, DATABASE_URL: databaseIn(dataDir) },
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A merchant made by `owo merchant create --json` in `dataDir`: its ids and test keys, as the CLI prints them. */
export function cliMerchant(dataDir: string, name: string, email: string): { merchantId: string; publicKey: string; secretKey: string } {
  const made = runCli(["merchant", "create", "--name", name, "--email", email, "--password", "a long password", "--json"], dataDir);
  return JSON.parse(made.stdout.trim().split("\n").pop() ?? "");
}

/** The CLI as its own process, without blocking this one (a test keeps its own server busy meanwhile). */
export async function runCliBeside(
  args: string[],
  databaseUrl: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...TSX, "server/cli/owo.ts", ...args], {
    env: { ...process.env, ...TEST_ENV, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { status, stdout, stderr };
}

/** A double's command-line flags: the credentials' names in kebab case, and `flags`. */
export const doubleFlags = (credentials: Record<string, string>, flags: Record<string, string> = {}) => ({
  ...Object.fromEntries(Object.entries(credentials).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v])),
  ...flags,
});

export type DoubleProcess = { url: string; child: ChildProcess; stop: () => Promise<void> };

/** A provider's test double as its own process (`npm run double -- <provider>`), on a free port of 127.0.0.1. */
export async function spawnDouble(provider: string, flags: Record<string, string> = {}): Promise<DoubleProcess> {
  const args = Object.entries(flags).flatMap(([k, v]) => [`--${k}`, v]);
  const child = spawn(process.execPath, [...TSX, "server/providers/double-cli.ts", provider, "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on("exit", (code) => reject(new Error(`${provider} double exited ${code}:\n${err}`)));
  });
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
