// Tests that need a real process (signals, crashes, the CLI) spawn the production entry points.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { freePort, TEST_ENV } from "./harness";

export type OwoProcess = { url: string; child: ChildProcess; output: () => string; exited: Promise<number | null> };

const TSX = ["--import", "tsx"];

/** The production server as its own process, API-only (no Next build needed), on `dataDir`'s database. */
export async function spawnOwo(dataDir: string, env: Record<string, string> = {}, port?: number): Promise<OwoProcess> {
  const p = port ?? (await freePort());
  const url = `http://127.0.0.1:${p}`;
  const child = spawn(process.execPath, [...TSX, "server/main.ts"], {
    env: { ...process.env, ...TEST_ENV, LOG_LEVEL: "info", NODE_ENV: "production", OWO_PAGES: "off", DATABASE_URL: join(dataDir, "owo.db"), PORT: String(p), OWO_PUBLIC_URL: url, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).status === 200) return { url, child, output: () => out, exited };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`owo did not start:\n${out}`);
}

export function runCli(args: string[], dataDir: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...TSX, "server/cli/owo.ts", ...args], {
    env: { ...process.env, ...TEST_ENV, DATABASE_URL: join(dataDir, "owo.db") },
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export type DoubleProcess = { url: string; child: ChildProcess; stop: () => Promise<void> };

/** A provider's test double as its own process (`npm run double -- <provider>`), on a free port of 127.0.0.1. */
export async function spawnDouble(provider: string, flags: Record<string, string> = {}): Promise<DoubleProcess> {
  const args = Object.entries(flags).flatMap(([k, v]) => [`--${k}`, v]);
  const child = spawn(process.execPath, [...TSX, "server/providers/double-cli.ts", provider, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
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
