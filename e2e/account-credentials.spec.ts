// A signed-in person changes their e-mail, then their password, on the Account page: the current password is asked,
// the old address is told, and the next sign-in takes only the new credentials.
import { expect, test, unique } from "./fixtures";

test("change e-mail then password from the Account page; the old address hears of it; sign in with the new ones", async ({
  page,
  merchant,
}) => {
  await page.goto("/account");
  const emailForm = page.getByTestId("change-email");
  const newEmail = `moved${unique()}@example.com`;
  await emailForm.getByLabel("New e-mail").fill(newEmail);
  await emailForm.getByLabel("Current password").fill("not my password at all");
  await emailForm.getByRole("button", { name: "Change e-mail" }).click();
  await expect(emailForm.locator(".field-error")).toHaveText("is not your current password");
  await page.screenshot({ path: "e2e/screenshots/account-credentials-1440.png", fullPage: true });
  await emailForm.getByLabel("Current password").fill(merchant.password);
  await emailForm.getByRole("button", { name: "Change e-mail" }).click();
  await expect(page.getByText(`${newEmail} · not confirmed yet`)).toBeVisible();

  await page.goto("/mail");
  await expect(
    page
      .getByTestId("mail")
      .filter({ hasText: `changed from ${merchant.email} to ${newEmail}` })
      .first(),
  ).toBeVisible();

  await page.goto("/account");
  await page.setViewportSize({ width: 390, height: 844 });
  const passwordForm = page.getByTestId("change-password");
  await passwordForm.getByLabel("New password").fill("a fresh long passphrase");
  await passwordForm.getByLabel("Current password").fill(merchant.password);
  await passwordForm.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "e2e/screenshots/account-credentials-390.png" });
  await passwordForm.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel("E-mail").fill(newEmail);
  await page.getByLabel("Password").fill("a fresh long passphrase");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
