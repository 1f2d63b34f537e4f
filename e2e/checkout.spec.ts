// A customer on a phone pays a TRANSFER on Owo's hosted checkout while the merchant's sandbox bank sends the money:
// the page follows the payment live, shows a receipt and returns to the shop's redirectUrl with the outcome.
import { sampleOrder } from "../server/testing/initiation";
import { expect, test, trpcMutation, paymentInput } from "./fixtures";

test("checkout on a phone: account, countdown, part payment, receipt, then back to the shop with status=SUCCESSFUL", async ({
  page,
  browser,
  merchant,
}) => {
  const origin = new URL(page.url()).origin;
  const issued = await trpcMutation(
    page,
    "initiatePayment",
    paymentInput(page, { paymentType: "TRANSFER", amount: "2500", redirectUrl: `${origin}/signin?from=shop` }),
  );
  const checkoutUrl = issued.checkoutUrl ?? "";
  expect(checkoutUrl).toBe(`${origin}/checkout/${issued.linkingReference}`);

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const customer = await phone.newPage();
  await customer.goto(checkoutUrl);
  await expect(customer.getByText(merchant.name, { exact: true })).toBeVisible();
  await expect(customer.getByTestId("checkout-amount")).toHaveText("₦2,500.00");
  await expect(customer.getByTestId("checkout-account-number")).toHaveText(issued.accountNumber ?? "");
  await expect(customer.getByText(`OWO(${merchant.name})`)).toBeVisible();
  await expect(customer.getByRole("timer")).toHaveText(/^\d+:\d\d$/);
  await expect(customer.getByText("Test payment")).toBeVisible();
  // Nothing private reaches the customer's page.
  await expect(customer.locator("body")).not.toContainText(sampleOrder.email);
  await customer.screenshot({ path: "e2e/screenshots/checkout.png", fullPage: true });

  // The merchant's sandbox bank under-pays, then pays the rest; the customer's page follows without a reload.
  await page.goto(`/payments/${issued.paymentReference}`);
  await page.getByRole("button", { name: "Under-pay half (₦1,250.00)" }).click();
  await expect(customer.getByText("₦1,250.00 received · ₦1,250.00 still to pay")).toBeVisible({ timeout: 10_000 });
  await expect(customer.getByTestId("checkout-amount")).toHaveText("₦1,250.00");
  await page.getByRole("button", { name: "Transfer ₦1,250.00" }).click();

  await expect(customer.getByTestId("receipt")).toContainText("Payment received", { timeout: 10_000 });
  await expect(customer.getByTestId("receipt")).toContainText("₦2,500.00");
  await expect(customer.getByTestId("receipt")).toContainText(issued.paymentReference ?? "");
  await customer.screenshot({ path: "e2e/screenshots/checkout-receipt.png", fullPage: true });

  await customer.waitForURL(/\/signin\?/, { timeout: 15_000 });
  const back = new URL(customer.url());
  expect(back.pathname).toBe("/signin");
  expect(back.searchParams.get("from")).toBe("shop");
  expect(back.searchParams.get("paymentReference")).toBe(issued.paymentReference);
  expect(back.searchParams.get("status")).toBe("SUCCESSFUL");
  await phone.close();
});

test("a USSD checkout offers tap-to-dial; an unknown one is a friendly 404", async ({ page, browser, merchant }) => {
  const issued = await trpcMutation(page, "initiatePayment", paymentInput(page, { bankCode: "033" }));
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const customer = await phone.newPage();
  await customer.goto(issued.checkoutUrl ?? "");
  await expect(customer.getByText(merchant.name, { exact: true })).toBeVisible();
  const code = issued.ussdDailCode ?? "";
  await expect(customer.getByTestId("checkout-dial-code")).toHaveText(code);
  await expect(customer.getByRole("link", { name: "Dial now" })).toHaveAttribute("href", `tel:${code.replace("#", "%23")}`);
  await expect(customer.getByText("United Bank for Africa")).toBeVisible();
  await customer.screenshot({ path: "e2e/screenshots/checkout-ussd.png", fullPage: true });
  // On a computer the QR code lets the customer dial from their phone.
  await page.goto(issued.checkoutUrl ?? "");
  await expect(page.locator("img[src^='data:image/svg+xml']")).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/checkout-desktop.png" });

  const missing = await customer.goto("/checkout/OWO00000000000000000");
  expect(missing?.status()).toBe(404);
  await expect(customer.getByText("Checkout not found")).toBeVisible();
  await phone.close();
});
