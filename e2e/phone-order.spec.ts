// A merchant takes a phone order from the dashboard: no callback or redirect URL, the number as Nigerians write it.
// With no saved defaults, the customer ends on Owo's own receipt page and only webhook endpoints are told.
import { expect, test } from "./fixtures";

for (const [name, viewport] of [
  ["desktop", { width: 1440, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`a phone order without URLs, +234 number, paid on Owo's receipt (${name})`, async ({ page, merchant }) => {
    await page.setViewportSize(viewport);
    await page.goto("/payments/new");
    await page.locator("label", { hasText: "Bank transfer" }).click();
    await page.getByLabel("Amount").fill("4200");
    await page.getByLabel("Customer name").fill("Tunde Bakare");
    await page.getByLabel("Mobile number").fill("+234 803-123 4567");
    await page.getByLabel("E-mail").fill("tunde@example.com");

    // The URLs are optional, and the form says where the defaults live and what happens without them.
    await page.getByText("Callback and redirect (optional)").click();
    const hint = page.getByTestId("url-defaults");
    await expect(hint).toContainText("the customer ends on Owo's own receipt page and only your webhook endpoints get the events");
    await expect(hint.getByRole("link", { name: "Developers" })).toHaveAttribute("href", "/developers");
    // A redirect URL that is not one is refused with a redirect's example, not a callback's.
    await page.getByLabel("Redirect URL").fill("thanks page");
    await page.getByRole("button", { name: "Open account" }).click();
    await expect(page.getByText("Redirect URL must be an absolute http(s) URL, e.g. https://shop.example.ng/thanks")).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/new-payment-urls-${name}.png`, fullPage: true });
    await page.getByLabel("Redirect URL").fill("");
    await page.getByRole("button", { name: "Open account" }).click();

    await expect(page).toHaveURL(/\/payments\/ord-[^/]+\?created=1$/);
    await expect(page.getByTestId("callback-url")).toHaveText("None: only your webhook endpoints are told");
    await expect(page.getByTestId("redirect-url")).toHaveText("None: the customer stays on Owo's receipt page");
    await expect(page.getByRole("link", { name: "2348031234567" })).toHaveAttribute("href", "tel:2348031234567");

    // The customer's checkout says what happens to money sent late: the merchant is told to refund it.
    const checkoutUrl = await page
      .getByRole("link", { name: /\/checkout\// })
      .first()
      .getAttribute("href");
    const checkout = await page.context().newPage();
    await checkout.setViewportSize(viewport);
    await checkout.goto(checkoutUrl ?? "");
    await expect(checkout.getByText("Money sent after it expires does not pay for it")).toContainText(
      `${merchant.name} is told to refund it to you`,
    );
    await checkout.screenshot({ path: `e2e/screenshots/checkout-transfer-${name}.png`, fullPage: true });

    await page.getByRole("button", { name: /^Transfer ₦4,200\.00/ }).click();
    await expect(page.getByTestId("payment-status")).toHaveText("Successful");
    const receipt = checkout.getByTestId("receipt");
    await expect(receipt).toContainText("Payment received", { timeout: 15_000 });
    await expect(receipt).toContainText(merchant.name);
    await expect(checkout.getByRole("link", { name: /back to|return/i })).toHaveCount(0);
    await checkout.screenshot({ path: `e2e/screenshots/checkout-receipt-no-redirect-${name}.png`, fullPage: true });
  });
}
