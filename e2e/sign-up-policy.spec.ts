// OWO_SIGNUP as a visitor meets it: with sign-up closed or by invitation, /signup says who makes accounts here instead of
// a form that would refuse, and the sign-in page stops offering "Create a merchant account".
import { expect, test } from "./fixtures";
import { startAnotherOwo } from "./another-owo";

for (const [policy, heading, words] of [
  ["closed", "Sign-up is closed", "This Owo's operator creates merchant accounts"],
  ["invite", "Sign-up is by invitation", "ask its owner or an admin for an invite link"],
] as const) {
  test(`OWO_SIGNUP=${policy}: the sign-up page says so and offers no form; sign-in offers no sign-up`, async ({ browser }) => {
    const owo = await startAnotherOwo({ OWO_SIGNUP: policy });
    try {
      const context = await browser.newContext({ baseURL: owo.url });
      const page = await context.newPage();
      await page.goto("/signup");
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
      await expect(page.getByTestId("no-sign-up")).toContainText(words);
      await expect(page.getByRole("button", { name: "Create account" })).toHaveCount(0);
      await page.screenshot({ path: `e2e/screenshots/sign-up-${policy}-1440.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `e2e/screenshots/sign-up-${policy}-390.png` });
      await page.getByRole("link", { name: "Sign in" }).click();
      await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Create a merchant account" })).toHaveCount(0);
      await context.close();
    } finally {
      owo.stop();
    }
  });
}

test("OWO_SIGNUP unset (open, the demo's): the sign-in page offers sign-up and the form creates a merchant", async ({ page }) => {
  await page.goto("/signin");
  await page.getByRole("link", { name: "Create a merchant account" }).click();
  await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
});
