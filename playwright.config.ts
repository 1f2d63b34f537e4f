// Playwright: Debian's Chromium (never a downloaded browser) against the production build on a temp database.
import { defineConfig, devices } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const port = Number(process.env.OWO_E2E_PORT ?? 3210);
// Set once in the runner; its workers inherit it.
process.env.OWO_E2E_DIR ??= mkdtempSync(join(tmpdir(), "owo-e2e-"));
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "./e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "npx tsx server/main.ts",
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      OWO_PUBLIC_URL: baseURL,
      DATABASE_URL: join(process.env.OWO_E2E_DIR, "owo.db"),
      OWO_IP_RATE_LIMIT_PER_MIN: "0",
      OWO_RATE_LIMIT_RPS: "0",
      OWO_ALLOW_PRIVATE_CALLBACKS: "1",
      OWO_WEBHOOK_BACKOFF_SCALE: "0.01",
      // The Providers page offers a base URL, so a journey can connect a provider's test double.
      OWO_ALLOW_PROVIDER_BASE_URL: "1",
      LOG_LEVEL: "warn",
      OWO_NEXT_DIST: process.env.OWO_NEXT_DIST ?? "",
    },
  },
});
