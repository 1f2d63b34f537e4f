// A second Owo from the same build, for journeys that need settings the e2e server does not have (it allows private
// callbacks and offers everything); on its own port and temp database, stopped by the test that started it.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "@playwright/test";
import { freePort } from "../server/testing/harness";

export type AnotherOwo = {
  url: string;
  stop: () => void;
  /** What it wrote to stderr so far (its warnings and errors). */ log: () => string;
};

/** `seeded`: its database is first given the demo as `npm run seed` makes it (the demo merchant and its sample payments). */
export async function startAnotherOwo(env: Record<string, string> = {}, { seeded = false } = {}): Promise<AnotherOwo> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "owo-e2e-another-"));
  const url = `http://127.0.0.1:${port}`;
  const owoEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    OWO_PUBLIC_URL: url,
    DATABASE_URL: join(dataDir, "owo.db"),
    OWO_IP_RATE_LIMIT_PER_MIN: "0",
    OWO_WEBHOOK_BACKOFF_SCALE: "0.01",
    LOG_LEVEL: "warn",
    ...env,
  };
  if (seeded) {
    const seed = spawnSync(process.execPath, ["--import", "tsx", "server/demo/seed.ts"], { env: owoEnv, encoding: "utf8" });
    if (seed.status !== 0) throw new Error(`npm run seed failed: ${seed.stderr}`);
  }
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { env: owoEnv, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => {
    log += chunk.toString();
    process.stderr.write(chunk);
  });
  const stop = () => {
    child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await expect(async () => expect((await fetch(`${url}/api/health`)).status).toBe(200)).toPass({ timeout: 60_000 });
  } catch (e) {
    stop();
    throw e;
  }
  return { url, stop, log: () => log };
}
