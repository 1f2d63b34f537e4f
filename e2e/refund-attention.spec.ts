// A live refund Paystack cannot pay back by itself (needs-attention, as for a USSD debit): the payment page shows it
// waiting for the customer's account, checks the NUBAN as the server does, sends the account (retried at Paystack by
// its bank id) and follows the refund to "Paid back"; a second one is given up and ends Failed. Paystack is its
// test double, as its own process.
import { paystackDoubleFor } from "./paystack-double";
import { expect, paymentInput, test, trpcMutation } from "./fixtures";

const SECRET_KEY = "sk_test_e2e_refund_attention";
const double = paystackDoubleFor(SECRET_KEY);

const control = (path: string, body: unknown, method = "POST") =>
  fetch(`${double.url()}${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test("a refund that needs the customer's account: given one from the payment page it is paid back; another is given up", async ({
  page,
  merchant: _merchant,
}) => {
  const { noticeUrl } = await trpcMutation<{ noticeUrl: string }>(page, "providers.connect", {
    provider: "paystack",
    credentials: { secretKey: SECRET_KEY },
    priority: 1,
    baseUrl: double.url(),
  });
  await control("/_double/webhook-url", { url: noticeUrl }, "PUT");
  await trpcMutation(page, "keys.createLive", null);
  await page.goto("/dashboard");
  await page.getByTestId("mode-switch").click();
  await expect(page.locator(".mode-badge")).toHaveText("Live");

  const input = paymentInput(page, { amount: "2500" });
  const issued = await trpcMutation<{ linkingReference: string }>(page, "initiatePayment", input);
  const reference = String(input.paymentReference);
  const paid = await control(`/_double/transactions/owo-${issued.linkingReference}-1/pay`, {});
  expect(paid.status).toBe(200);
  await page.goto(`/payments/${reference}`);
  await expect(page.getByTestId("payment-status")).toHaveText("Successful", { timeout: 20_000 });

  await control("/_double/integration", { refundsNeedingAttention: 2 });
  await trpcMutation(page, "payments.refund", {
    paymentReference: reference,
    amount: "1500.00",
    reason: "Out of stock",
    refundReference: "na-1",
  });
  await trpcMutation(page, "payments.refund", {
    paymentReference: reference,
    amount: "1000.00",
    reason: "Late delivery",
    refundReference: "na-2",
  });
  const refunds = page.getByTestId("refunds").getByRole("listitem");
  const first = refunds.filter({ hasText: "na-1" });
  const second = refunds.filter({ hasText: "na-2" });
  await expect(first).toContainText("Needs the customer's account", { timeout: 20_000 });
  await expect(second).toContainText("Needs the customer's account");
  await expect(page.getByTestId("timeline")).toContainText("The provider needs the customer's bank account to pay back ₦1,500.00");

  const form = first.getByRole("form", { name: "Customer's account for refund na-1" });
  await form.getByLabel("Customer's bank").selectOption({ label: "Guaranty Trust Bank" });
  await form.getByLabel("Account number").fill("0123456789");
  await form.getByRole("button", { name: "Send the refund to this account" }).click();
  await expect(form).toContainText("0123456789 is not a valid account number at Guaranty Trust Bank");
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.screenshot({ path: "e2e/screenshots/refund-attention-1440.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/refund-attention-390.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 1000 });

  await form.getByLabel("Account number").fill("0123456785");
  await form.getByRole("button", { name: "Send the refund to this account" }).click();
  await expect(first).toContainText("Paid back", { timeout: 20_000 });
  await expect(page.getByTestId("amount-refunded")).toHaveText("₦1,500.00");
  await expect(page.getByTestId("timeline")).toContainText("sent again to the customer's account at Guaranty Trust Bank ending 6785");

  await second.getByRole("button", { name: "Give up this refund" }).click();
  const giveUp = page.getByRole("dialog", { name: "Give up this refund?" });
  // Its words in the dashboard's ink, as every other dialog's (app/(dashboard)/dialog.module.css), not the browser's black.
  await expect(giveUp).toHaveCSS("color", "rgb(20, 33, 61)");
  await page.screenshot({ path: "e2e/screenshots/refund-give-up-dialog.png" });
  await giveUp.getByRole("button", { name: "Yes, give it up" }).click();
  await expect(second).toContainText("Failed");
  await expect(second).toContainText("given up by the merchant");
  await expect(page.getByTestId("refund-account")).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/refund-attention-done.png", fullPage: true });
});
