// Sessions end when they should: a stolen cookie dies at sign-out and at a password reset, and is never renewed.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { startAnotherOwo } from "./another-owo";
import { expect, signUp, test } from "./fixtures";

test("a saved session cookie dies at sign-out, and /api/auth/session does not bring it back", async ({ page, merchant, browser }) => {
  void merchant;
  const saved = await page.context().storageState();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);

  const thief = await browser.newContext({ storageState: saved });
  const stolen = await thief.newPage();
  expect((await stolen.request.get("/api/auth/session")).status()).toBe(200);
  expect(await (await stolen.request.get("/api/auth/session")).json()).toEqual({});
  expect((await stolen.request.get("/api/trpc/team.members")).status()).toBe(401);
  await stolen.goto("/dashboard");
  await expect(stolen).toHaveURL(/\/signin/);
  await thief.close();
});

test("`owo user reset-password` ends every session of that person", async ({ page, merchant }) => {
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  execFileSync(
    process.execPath,
    ["--import", "tsx", "server/cli/owo.ts", "user", "reset-password", "--email", merchant.email, "--password", "a fresh long passphrase"],
    {
      env: { ...process.env, DATABASE_URL: join(process.env.OWO_E2E_DIR ?? "", "owo.db"), LOG_LEVEL: "silent" },
    },
  );
  // The server learns of it from the database within OWO_REVOCATION_SECONDS (2 s).
  await expect(async () => {
    expect((await page.request.get("/api/trpc/team.members")).status()).toBe(401);
  }).toPass({ timeout: 5000 });
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/signin/);
});

test("a session that ended sends each dashboard page to sign-in and back to it after, and the server logs no error for it", async ({
  browser,
}) => {
  // Its own Owo, so the server's log holds only this journey's lines.
  const owo = await startAnotherOwo();
  const context = await browser.newContext({ baseURL: owo.url });
  try {
    const page = await context.newPage();
    const merchant = await signUp(page);
    const saved = await context.storageState();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin/);

    const ended = await browser.newContext({ baseURL: owo.url, storageState: saved });
    const visitor = await ended.newPage();
    // Next renders a layout and its page at once: each page must send the visitor on, not ask the core for nobody.
    const pages = ["/dashboard", "/payments", "/payments/new", "/balances", "/settlements", "/reconciliation", "/links"];
    for (const path of [...pages, "/developers", "/business", "/providers", "/team", "/account", "/mail"]) {
      await visitor.goto(path);
      await expect(visitor).toHaveURL(`${owo.url}/signin?callbackUrl=${encodeURIComponent(path)}`);
    }
    await visitor.goto("/balances");
    await visitor.getByLabel("E-mail").fill(merchant.email);
    await visitor.getByLabel("Password").fill(merchant.password);
    await visitor.getByRole("button", { name: "Sign in" }).click();
    await expect(visitor).toHaveURL(`${owo.url}/balances`);
    await expect(visitor.getByRole("heading", { name: "Balances" })).toBeVisible();
    await ended.close();

    expect(owo.log()).not.toMatch(/⨯|Error|UNAUTHORIZED/);
  } finally {
    await context.close();
    owo.stop();
  }
});
