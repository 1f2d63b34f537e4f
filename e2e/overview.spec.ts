// The overview moves with the merchant's payments: gross, fees and net from the books, gross split by channel (part
// payments included, so the channels add up to it), counts and success rate by channel.
import { expect, test, trpcMutation, paymentInput } from "./fixtures";

test("an empty overview invites a first payment; then figures and charts follow paid, declined and open payments", async ({
  page,
  merchant,
}) => {
  expect(merchant.email).toContain("@");
  await expect(page.getByText("No payments yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Create a test payment" })).toHaveAttribute("href", "/payments/new");

  const pay = async (patch: Record<string, unknown>, outcome: "pay" | "decline" | null, amount?: string) => {
    const issued = await trpcMutation(page, "initiatePayment", paymentInput(page, patch));
    if (outcome) await trpcMutation(page, "sandbox.simulate", { paymentReference: issued.paymentReference, outcome, amount });
  };
  await pay({ amount: "1500" }, "pay");
  await pay({ amount: "2500", bankCode: "044" }, "pay");
  await pay({ amount: "2000" }, "decline");
  await pay({ paymentType: "TRANSFER", amount: "5000" }, "pay");
  await pay({ paymentType: "TRANSFER", amount: "9999" }, "pay", "1000"); // part-paid: still open, its ₦1,000 in gross

  await page.goto("/dashboard");
  await page.getByRole("tab", { name: "Today" }).click();
  await expect(page.getByTestId("kpi-gross")).toHaveText("₦10,000.00");
  await expect(page.getByTestId("kpi-fees")).toHaveText("−₦350.00"); // ₦22.50 + ₦137.50 + ₦175.00 + ₦15.00
  await expect(page.getByTestId("kpi-net")).toHaveText("₦9,650.00");
  await expect(page.getByTestId("kpi-count")).toHaveText("5");
  await expect(page.getByTestId("kpi-rate")).toHaveText("75.0%");
  await expect(page.getByText("3 successful · 1 open · 1 failed · 0 expired")).toBeVisible();
  // The channels add up to gross: USSD ₦1,500 + ₦2,500; transfer ₦5,000 paid in full and ₦1,000 of the open one.
  const ussd = page.getByTestId("channel-USSD");
  const transfer = page.getByTestId("channel-TRANSFER");
  await expect(ussd.getByTestId("channel-received")).toHaveText("₦4,000.00");
  await expect(transfer.getByTestId("channel-received")).toHaveText("₦6,000.00");
  await expect(ussd.getByText("40% of gross")).toBeVisible();
  await expect(transfer.getByText("60% of gross")).toBeVisible();
  await expect(page.getByText("so the channels add up to Gross")).toBeVisible();
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await page.getByRole("tab", { name: "30 days" }).click();
  await expect(page.getByTestId("kpi-gross")).toHaveText("₦10,000.00");
  await expect(transfer.getByTestId("channel-received")).toHaveText("₦6,000.00");
  await page.getByRole("tab", { name: "Today" }).click();
  await expect(page.getByTestId("payments-table").getByRole("row")).toHaveCount(6);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "e2e/screenshots/overview.png", fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/overview-phone.png", fullPage: true });
});
