// A second Owo from the same build, for journeys that need settings the e2e server does not have (it allows private
// callbacks and offers everything); on its own port and temp database, stopped by the test that started it.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "@playwright/test";
import { freePort } from "../server/testing/harness";

export type AnotherOwo = { url: string; stop: () => void };

export async function startAnotherOwo(env: Record<string, string> = {}): Promise<AnotherOwo> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "owo-e2e-another-"));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
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
    },
    stdio: ["ignore", "ignore", "inherit"],
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
  return { url, stop };
}
