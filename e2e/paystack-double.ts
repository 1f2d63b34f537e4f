// Paystack's double as its own process for a page test (server/providers/double-cli.ts), on a free port.
import { spawn } from "node:child_process";
import type { Page } from "@playwright/test";
import { test } from "./fixtures";

type PaystackDouble = { url: string; stop: () => void };

async function startPaystackDouble(secretKey: string): Promise<PaystackDouble> {
  const double = spawn(
    process.execPath,
    ["--import", "tsx", "server/providers/double-cli.ts", "paystack", "--port", "0", "--secret-key", secretKey],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    double.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    double.on("exit", (code) => reject(new Error(`paystack double exited ${code}`)));
  });
  return { url, stop: () => double.kill("SIGTERM") };
}

/**
 * The spec's own Paystack double: started before its tests and stopped after them; `url()` once it runs. `connect`
 * connects the signed-in merchant's Paystack account to it with the form on /providers (the page already open).
 */
export function paystackDoubleFor(secretKey: string): { url: () => string; connect: (page: Page, priority?: string) => Promise<void> } {
  let double: PaystackDouble | undefined;
  test.beforeAll(async () => {
    double = await startPaystackDouble(secretKey);
  });
  test.afterAll(() => double?.stop());
  const url = () => {
    if (!double) throw new Error("the Paystack double has not started");
    return double.url;
  };
  async function connect(page: Page, priority?: string): Promise<void> {
    const form = page.getByTestId("connect-provider");
    await form.getByRole("combobox").selectOption("paystack");
    await form.getByLabel(/Secret key/).fill(secretKey);
    if (priority) await form.getByLabel(/^Priority/).fill(priority);
    await form.getByLabel(/Base URL/).fill(url());
    await form.getByRole("button", { name: "Connect" }).click();
  }
  return { url, connect };
}
