// Shared e2e fixtures: `merchant` signs up a fresh merchant in the test's page and leaves it signed in on /dashboard.
import { test as base, expect, type Page } from "@playwright/test";

export type Merchant = { name: string; email: string; password: string };

export const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

export async function signUp(page: Page, name = `Store ${unique()}`): Promise<Merchant> {
  const merchant = { name, email: `owner${unique()}@example.com`, password: "a good long password" };
  await page.goto("/signup");
  await page.getByLabel("Business name").fill(merchant.name);
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByLabel("Password").fill(merchant.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return merchant;
}

export const test = base.extend<{ merchant: Merchant }>({
  merchant: async ({ page }, use) => {
    await use(await signUp(page));
  },
});

export { expect };
