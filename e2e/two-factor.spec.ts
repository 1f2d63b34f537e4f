// Two-factor sign-in in the browser: enrol from the key shown beside the QR code, sign in with password and code,
// a wrong code refused, a recovery code working once; an owner requires it and a teammate is sent to enrol first.
import { generate } from "otplib";
import type { Page } from "@playwright/test";
import { expect, signIn, test, unique } from "./fixtures";

/** A code for the current 30-second step, or the next one if the current was just used (each code is accepted once). */
async function code(secret: string, step: "now" | "next" = "now"): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  if (step === "next") await new Promise((r) => setTimeout(r, (30 - (now % 30) + 1) * 1000));
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) });
}

async function enrol(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto("/account");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  await page.getByRole("button", { name: "Show the key to type in" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel("Code from your app").fill(await code(secret));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const list = page.getByTestId("recovery-codes").locator("li");
  await expect(list).toHaveCount(10);
  return { secret, recoveryCodes: await list.allTextContents() };
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
}

test("enrol two-factor by the key beside the QR code; sign in with password and code; a wrong code is refused; a recovery code works once", async ({
  page,
  merchant,
}) => {
  const { secret, recoveryCodes } = await enrol(page);
  await signOut(page);

  await signIn(page, merchant.email, merchant.password);
  await expect(page.getByLabel("Two-factor code")).toBeVisible();
  await page.getByLabel("Two-factor code").fill("000000" === (await code(secret)) ? "111111" : "000000");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".form-error")).toHaveText("That code is wrong or was already used. Try the current one.");
  await expect(page).toHaveURL(/\/signin/);

  await page.getByLabel("Two-factor code").fill(await code(secret, "next"));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("merchant-name")).toHaveText(merchant.name);

  const recovery = recoveryCodes[0] ?? "";
  await signOut(page);
  await signIn(page, merchant.email, merchant.password, recovery);
  await expect(page.getByTestId("merchant-name")).toHaveText(merchant.name);
  await signOut(page);
  await signIn(page, merchant.email, merchant.password, recovery);
  await expect(page.locator(".form-error")).toHaveText("That code is wrong or was already used. Try the current one.");
});

test("an owner requires two-factor for the team; a teammate without it is sent to enrol first", async ({ page, merchant, browser }) => {
  await enrol(page);
  await page.goto("/team");
  const teammateEmail = `mate${unique()}@example.com`;
  await page.getByLabel("Their e-mail").fill(teammateEmail);
  await page.getByRole("button", { name: "Create invite link" }).click();
  const inviteUrl = await page.getByLabel("Invite link").inputValue();

  const other = await browser.newContext();
  const mate = await other.newPage();
  await mate.goto(inviteUrl);
  await mate.getByLabel("Your name").fill("Mate");
  await mate.getByLabel("Password").fill("a good long password");
  await mate.getByRole("button", { name: `Join ${merchant.name}` }).click();
  await expect(mate).toHaveURL(/\/dashboard$/);

  await page.getByLabel("Require two-factor sign-in for everyone on this team").check();
  // The box ticks at once; the rule holds only once the server has saved it.
  await expect(page.getByRole("status").filter({ hasText: "Saved: everyone on this team now signs in with two factors." })).toBeVisible();

  await mate.goto("/payments");
  await expect(mate).toHaveURL(/\/account\?two-factor=required/);
  await expect(mate.getByText(`${merchant.name} requires two-factor sign-in. Set it up below to use the dashboard.`)).toBeVisible();
  // The CSV export (customers' names, e-mails, phones) is refused by the same rule as every other door.
  const exported = await mate.request.get("/api/exports/payments");
  expect(exported.status()).toBe(403);
  expect(await exported.text()).toContain("requires two-factor sign-in");
  await enrol(mate);
  expect((await mate.request.get("/api/exports/payments")).status()).toBe(200);
  await mate.goto("/payments");
  await expect(mate).toHaveURL(/\/payments$/);
  await other.close();
});

test("rolling the secret key from a session that has not typed a code for 15 minutes asks for a fresh one first", async ({
  page,
  merchant,
  browser,
}) => {
  // A second browser signed in before two-factor was turned on: its session never proved a second factor.
  const other = await browser.newContext();
  const laptop = await other.newPage();
  await signIn(laptop, merchant.email, merchant.password);
  await expect(laptop.getByTestId("merchant-name")).toHaveText(merchant.name);
  const { secret } = await enrol(page);

  await laptop.goto("/developers");
  await laptop.getByRole("button", { name: "Roll secret key" }).click();
  await laptop.getByRole("button", { name: "Roll now" }).click();
  const dialog = laptop.getByRole("dialog", { name: "Enter a two-factor code" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Current code").fill(await code(secret, "next"));
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.getByRole("status")).toContainText("Code accepted");
  await dialog.getByRole("button", { name: "Close" }).click();

  await laptop.getByRole("button", { name: "Roll secret key" }).click();
  await laptop.getByRole("button", { name: "Roll now" }).click();
  await expect(laptop.getByRole("button", { name: "Copy secret key" })).toBeVisible();
  await other.close();
});
