// A merchant signs up, signs out, signs back in; wrong passwords and signed-out visits are handled.
import { expect, test } from "@playwright/test";
import { createAccount, unique } from "./fixtures";

test("sign up a new merchant, sign out, sign in and see the merchant's name", async ({ page }) => {
  // The Content-Security-Policy the front sends must be one the pages actually pass.
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  const { email, password } = await createAccount(page, "Mama Put Kitchen");
  await expect(page.getByTestId("merchant-name")).toHaveText("Mama Put Kitchen");
  await expect(page.getByText("Test mode")).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);

  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("merchant-name")).toHaveText("Mama Put Kitchen");
  expect(violations).toEqual([]);
});

test("a wrong password shows a clear message", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill("nobody@example.com");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".form-error")).toHaveText("Wrong e-mail or password.");
  await expect(page).toHaveURL(/\/signin/);
});

test("a signed-out visit to a dashboard page lands on sign-in, then returns there", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("sign-up refuses short, common and e-mail-bearing passwords with the field named (NIST 800-63B)", async ({ page }) => {
  const email = `owner${unique()}@example.com`;
  await page.goto("/signup");
  await page.getByLabel("Business name").fill("Short Pw Ltd");
  await page.getByLabel("E-mail").fill(email);
  const refusals: [string, string][] = [
    ["12345678", "Password must be at least 12 characters"],
    ["        ", "Password must be at least 12 characters"],
    ["password1234", "Password is one of the most commonly used passwords; choose another"],
    [`${email}!`, "Password must not contain your e-mail address"],
  ];
  for (const [password, message] of refusals) {
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText(message)).toBeVisible();
  }
});
