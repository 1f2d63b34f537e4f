// An owner refunds part of a paid sandbox payment from its page, then the rest; cancels a pending one. The sandbox bank
// pays each refund back within seconds and the page follows it to "Paid back", with the money and the timeline.
import { expect, paymentInput, test, trpcMutation } from "./fixtures";

test("refund a paid sandbox payment from the dashboard, in two parts, and cancel a pending one", async ({ page, merchant: _merchant }) => {
  const input = paymentInput(page, { amount: "2500" });
  await trpcMutation(page, "initiatePayment", input);
  const reference = String(input.paymentReference);
  await page.goto(`/payments/${reference}`);
  await expect(page.getByRole("button", { name: "Refund" })).toHaveCount(0);
  await page.getByRole("button", { name: "Customer pays ₦2,500.00" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Successful");

  // Part: the dialog offers all that is refundable, the owner asks for less.
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Refund the customer?" });
  await expect(dialog.getByLabel("Amount (₦)")).toHaveValue("2500.00");
  await dialog.getByLabel("Amount (₦)").fill("1000");
  await dialog.getByLabel("Reason").fill("One item out of stock");
  await page.screenshot({ path: "e2e/screenshots/refund-dialog.png", fullPage: true });
  await dialog.getByRole("button", { name: "Refund now" }).click();
  const said = page.getByRole("status").filter({ hasText: /^Refund of ₦1,000\.00 \(RFD/ });
  await expect(said).toBeVisible();

  const refunds = page.getByTestId("refunds");
  await expect(refunds.getByRole("listitem")).toHaveCount(1);
  await expect(refunds).toContainText("One item out of stock");
  await expect(refunds.getByRole("listitem").first()).toContainText("Paid back", { timeout: 15_000 });
  // Its sentence follows its state: once paid back it no longer says the provider pays it back shortly.
  await expect(said).toContainText("paid back to the customer.");
  await expect(said).not.toContainText("shortly");
  await expect(page.getByTestId("amount-refunded")).toHaveText("₦1,000.00");
  await expect(page.getByTestId("timeline")).toContainText("₦1,000.00 paid back to the customer");
  await expect(page.getByTestId("payment-status")).toHaveText("Successful");

  // The rest: offered as the default, refused above it by the server, then refunded whole.
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(dialog.getByLabel("Amount (₦)")).toHaveValue("1500.00");
  await dialog.getByLabel("Amount (₦)").fill("1500.01");
  await dialog.getByLabel("Reason").fill("Too much");
  await dialog.getByRole("button", { name: "Refund now" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "more than is refundable (1500.00)" })).toBeVisible();
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await dialog.getByLabel("Reason").fill("Order cancelled");
  await dialog.getByRole("button", { name: "Refund now" }).click();
  await expect(refunds.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByTestId("amount-refunded")).toHaveText("₦2,500.00", { timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/refunded.png", fullPage: true });

  // A pending payment: cancelled after a confirmation.
  const pending = paymentInput(page);
  await trpcMutation(page, "initiatePayment", pending);
  await page.goto(`/payments/${String(pending.paymentReference)}`);
  await page.getByRole("button", { name: "Cancel payment" }).click();
  await page.getByRole("dialog", { name: "Cancel this payment?" }).getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Cancelled");
  await expect(page.getByTestId("timeline")).toContainText("The merchant cancelled the payment");
  await expect(page.getByRole("button", { name: "Cancel payment" })).toHaveCount(0);
});
