// Going live in the dashboard: connect Paystack (its test double, as its own process), test the connection, make live
// keys, switch to live mode, create a USSD payment, and watch it settle when the double's customer pays and its signed
// webhook reaches the notice URL the page shows; then refund it, paid back at Paystack and announced by its webhook.
import { paystackDoubleFor } from "./paystack-double";
import { createUssdPayment, expect, test } from "./fixtures";

const SECRET_KEY = "sk_test_e2e_paystack_double";
const double = paystackDoubleFor(SECRET_KEY);

test("connect a provider against its double, create a live payment from the dashboard, watch it settle, refund it", async ({
  page,
  merchant,
}) => {
  await expect(page.getByTestId("mode-switch")).toHaveCount(0);
  await page.goto("/providers");
  await expect(page.getByTestId("no-providers")).toBeVisible();
  await double.connect(page, "1");

  const card = page.getByTestId("provider-paystack");
  await expect(card).toContainText("secretKey …ubl");
  await expect(card).toContainText("provider test mode");
  const noticeUrl = (await card.getByTestId("notice-url").textContent()) ?? "";
  expect(noticeUrl).toMatch(/\/api\/v2\/providers\/prv_[0-9a-z]{20}\/notices$/);
  await expect(card).toContainText("is a loopback address: a provider cannot reach it");
  // What the merchant does on Paystack's dashboard: paste the notice URL as the webhook URL.
  await fetch(`${double.url()}/_double/webhook-url`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: noticeUrl }),
  });

  await card.getByRole("button", { name: "Test connection" }).click();
  await expect(card.getByTestId("test-result")).toHaveText("Connection works: paystack accepted the credentials");

  await page.getByRole("button", { name: "Create live keys" }).click();
  await expect(page.getByTestId("live-keys")).toContainText(/pk_live_[0-9a-f]+/);
  await page.screenshot({ path: "e2e/screenshots/providers.png", fullPage: true });

  await page.getByTestId("mode-switch").click();
  await expect(page.locator(".mode-badge")).toHaveText("Live");

  await page.goto("/payments/new");
  const reference = `live-${Date.now()}`;
  await createUssdPayment(page, "2500", reference);

  await expect(page).toHaveURL(new RegExp(`/payments/${reference}\\?created=1$`));
  await expect(page.getByTestId("dial-code")).toHaveText(/^\*737\*33\*4\*\d{6}#$/);
  await expect(page.getByTestId("provider")).toHaveText("Paystack");
  await expect(page.getByTestId("payment-status")).toHaveText("Pending");
  const linkingReference =
    (await page
      .getByText(/^OWO\d{17}$/)
      .first()
      .textContent()) ?? "";

  // The customer dials the code and pays at Paystack (the double); Paystack's signed charge.success reaches Owo.
  const paid = await fetch(`${double.url()}/_double/transactions/owo-${linkingReference}-1/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(paid.status).toBe(200);
  await expect(page.getByTestId("payment-status")).toHaveText("Successful", { timeout: 20_000 });
  await expect(page.getByTestId("amount-paid")).toHaveText("₦2,500.00");
  await page.reload();
  await expect(page.getByTestId("timeline")).toContainText("Notice from the provider: applied");
  // Sent to Paystack under Owo's own prefix, in the form Paystack allows (owo-, API.md writes owo_).
  await expect(page.getByTestId("provider-reference")).toHaveText(`owo-${linkingReference}-1`);
  await expect(page.getByTestId("merchant-name")).toHaveText(merchant.name);
  await page.screenshot({ path: "e2e/screenshots/live-payment.png", fullPage: true });

  // Refund it: Owo asks Paystack (POST /refund); Paystack's signed refund.processed at the notice URL settles it.
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Refund the customer?" });
  await expect(dialog.getByLabel("Amount (₦)")).toHaveValue("2500.00");
  await dialog.getByLabel("Reason").fill("Customer returned the order");
  await dialog.getByRole("button", { name: "Refund now" }).click();
  await expect(page.getByTestId("refunds").getByRole("listitem").first()).toContainText("Paid back", { timeout: 20_000 });
  await expect(page.getByTestId("amount-refunded")).toHaveText("₦2,500.00");
  await expect(page.getByTestId("payment-status")).toHaveText("Successful");
  await expect(page.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
});
