// An owner refunds part of a paid sandbox payment from its page, then the rest; cancels a pending one. The sandbox bank
// pays each refund back within seconds and the page follows it to "Paid back", with the money and the timeline. A refused
// amount keeps the dialog open and is said in naira; amounts are typed as on New payment ("1,000.00").
import { expect, paymentInput, shoot, test, trpcMutation } from "./fixtures";

test("refund a paid sandbox payment from the dashboard, in two parts, and cancel a pending one", async ({ page, merchant: _merchant }) => {
  const input = paymentInput(page, { amount: "2500" });
  await trpcMutation(page, "initiatePayment", input);
  const reference = String(input.paymentReference);
  await page.goto(`/payments/${reference}`);
  await expect(page.getByRole("button", { name: "Refund" })).toHaveCount(0);
  await page.getByRole("button", { name: "Customer pays ₦2,500.00" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Successful");

  // Part: the dialog offers all that is refundable; a refusal keeps it open with what was typed, said in naira.
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Refund the customer?" });
  const amount = dialog.getByLabel("Amount (₦)");
  await expect(amount).toHaveValue("2500.00");
  await amount.fill("0");
  await dialog.getByLabel("Reason").fill("One item out of stock");
  await dialog.getByRole("button", { name: "Refund now" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Enter the amount in naira, more than ₦0.00 and at most ₦2,500.00, e.g. 1,000.00.");
  await expect(amount).toHaveValue("0");
  // Typed as the New payment form takes it, thousands comma and all.
  await amount.fill("1,000.00");
  await page.screenshot({ path: "e2e/screenshots/refund-dialog.png", fullPage: true });
  await dialog.getByRole("button", { name: "Refund now" }).click();
  await expect(dialog).toBeHidden();
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
  // The money row adds up as read: ₦2,500.00 − ₦137.50 − ₦1,000.00 = ₦1,362.50.
  const money = page.getByTestId("money");
  await expect(money.locator("dt")).toHaveText(["Paid", "− Fee", "− Refunded", "= Net to you"]);
  await expect(money.locator("dd")).toHaveText(["₦2,500.00", "₦137.50", "₦1,000.00", "₦1,362.50"]);
  // The head marks it as the payments list does.
  await expect(page.getByTestId("payment-status")).toHaveText("Successful");
  await expect(page.getByTestId("payment-refund-mark")).toHaveText("Partly refunded");

  // The rest: offered as the default, refused above it by the server (the dialog keeps what was typed), then refunded.
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(amount).toHaveValue("1500.00");
  await amount.fill("1,500.01");
  await dialog.getByLabel("Reason").fill("Order cancelled");
  await dialog.getByRole("button", { name: "Refund now" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("₦1,500.01 is more than can go back: at most ₦1,500.00 is refundable.");
  await expect(amount).toHaveValue("1,500.01");
  await shoot(page, "refund-refused");
  await amount.fill("1500");
  await dialog.getByRole("button", { name: "Refund now" }).click();
  await expect(refunds.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByTestId("amount-refunded")).toHaveText("₦2,500.00", { timeout: 15_000 });
  await expect(page.getByTestId("payment-refund-mark")).toHaveText("Refunded");
  await expect(page.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/refunded.png", fullPage: true });
  await page.goto("/payments");
  await expect(page.getByTestId("payments-table").getByRole("row").filter({ hasText: reference })).toContainText("Refunded");

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
