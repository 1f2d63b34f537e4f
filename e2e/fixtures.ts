// Shared e2e fixtures: `merchant` signs up a fresh merchant in the test's page and leaves it signed in on /dashboard.
import { test as base, expect, type Page } from "@playwright/test";
import { sampleOrder } from "../server/testing/initiation";

export type Merchant = { name: string; email: string; password: string };

export const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** A new merchant made on the sign-up page, signed in on /dashboard with its e-mail not yet confirmed. */
export async function createAccount(page: Page, name = `Store ${unique()}`): Promise<Merchant> {
  const merchant = { name, email: `owner${unique()}@example.com`, password: "a good long password" };
  await page.goto("/signup");
  await page.getByLabel("Business name").fill(merchant.name);
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByLabel("Password").fill(merchant.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return merchant;
}

export async function signUp(page: Page, name?: string): Promise<Merchant> {
  const merchant = await createAccount(page, name);
  await confirmEmail(page);
  return merchant;
}

/** Signs in on /signin with the password, then with `secondFactor` when given (a code or a recovery code). */
export async function signIn(page: Page, email: string, password: string, secondFactor?: string): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (secondFactor === undefined) return;
  await page.getByLabel("Two-factor code").fill(secondFactor);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Opens the verification link of the sign-up mail, read from "Mail sent by this Owo" (the e2e server has no SMTP). */
export async function confirmEmail(page: Page): Promise<void> {
  await page.goto("/mail");
  await page
    .getByTestId("mail")
    .filter({ hasText: "confirm your e-mail" })
    .first()
    .getByRole("link", { name: /\/verify-email\?token=/ })
    .click();
  await page.getByRole("button", { name: "Confirm my e-mail" }).click();
  await expect(page.getByRole("heading", { name: "E-mail confirmed" })).toBeVisible();
  await page.goto("/dashboard");
}

export const test = base.extend<{ merchant: Merchant }>({
  merchant: async ({ page }, use) => {
    await use(await signUp(page));
  },
});

export { expect };

/** A tRPC mutation as the signed-in dashboard user (the page's cookies; Origin as the dashboard sends it). */
export async function trpcMutation<T = Record<string, string>>(page: Page, path: string, input: unknown): Promise<T> {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post(`${origin}/api/trpc/${path}`, { data: { json: input }, headers: { origin } });
  const body = (await res.json()) as { result?: { data: { json: T } }; error?: unknown };
  if (!res.ok() || !body.result) throw new Error(`${path} failed with ${res.status()}: ${JSON.stringify(body.error)}`);
  return body.result.data.json;
}

/** A valid initiatePayment input (the test kit's sample order); callbacks go to this test server's health check, which answers 200. */
export function paymentInput(page: Page, patch: Record<string, unknown> = {}): Record<string, unknown> {
  const origin = new URL(page.url()).origin;
  const input: Record<string, unknown> = {
    ...sampleOrder,
    paymentType: "USSD",
    bankCode: "058",
    paymentReference: `e2e-${unique()}`,
    callbackUrl: `${origin}/api/health`,
    redirectUrl: `${origin}/signin`,
    ...patch,
  };
  if (input.paymentType === "TRANSFER") delete input.bankCode;
  return input;
}

/** A payment made from the dashboard (`paymentInput` with `patch`) and paid in full at the sandbox bank: its reference. */
export async function paidInSandbox(page: Page, patch: Record<string, unknown> = {}): Promise<string> {
  const input = paymentInput(page, patch);
  await trpcMutation(page, "initiatePayment", input);
  await trpcMutation(page, "sandbox.simulate", { paymentReference: input.paymentReference, outcome: "pay" });
  return String(input.paymentReference);
}

/** The whole page at 1440 px (`<name>.png`) and at 390 px (`<name>-390.png`), to be looked at; it is left at 1440 px. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `e2e/screenshots/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** On the New payment page: a USSD payment of `amount` at GTBank (*737#) under `reference`, callbacks to this server. */
export async function createUssdPayment(page: Page, amount: string, reference: string): Promise<void> {
  const origin = new URL(page.url()).origin;
  await page.getByLabel("Amount").fill(amount);
  await page.getByLabel("Customer's bank").selectOption({ label: "Guaranty Trust Bank (*737#)" });
  await page.getByLabel("Customer name").fill("Chiamaka Obi");
  await page.getByLabel("Mobile number").fill("08031234567");
  await page.getByLabel("E-mail").fill("chiamaka@example.com");
  await page.getByLabel("Payment reference").fill(reference);
  await page.getByText("Callback and redirect (optional)").click();
  await page.getByLabel("Callback URL").fill(`${origin}/api/health`);
  await page.getByLabel("Redirect URL").fill(`${origin}/signin`);
  await page.getByRole("button", { name: "Create dial code" }).click();
}
