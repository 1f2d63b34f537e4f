// Sessions end when they should: a stolen cookie dies at sign-out and at a password reset, and is never renewed.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "./fixtures";

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
