// The overview moves with the merchant's payments: gross, fees and net from the books, counts and success rate by
// channel.
import { expect, test, trpcMutation, paymentInput } from "./fixtures";

test("an empty overview invites a first payment; then figures and charts follow paid, declined and open payments", async ({
  page,
  merchant,
}) => {
  expect(merchant.email).toContain("@");
  await expect(page.getByText("No payments yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Create a test payment" })).toHaveAttribute("href", "/payments/new");

  const pay = async (patch: Record<string, unknown>, outcome: "pay" | "decline" | null) => {
    const issued = await trpcMutation(page, "initiatePayment", paymentInput(page, patch));
    if (outcome) await trpcMutation(page, "sandbox.simulate", { paymentReference: issued.paymentReference, outcome });
  };
  await pay({ amount: "1500" }, "pay");
  await pay({ amount: "2500", bankCode: "044" }, "pay");
  await pay({ amount: "2000" }, "decline");
  await pay({ paymentType: "TRANSFER", amount: "5000" }, "pay");
  await pay({ paymentType: "TRANSFER", amount: "9999" }, null);

  await page.goto("/dashboard");
  await page.getByRole("tab", { name: "Today" }).click();
  await expect(page.getByTestId("kpi-gross")).toHaveText("₦9,000.00");
  await expect(page.getByTestId("kpi-fees")).toHaveText("−₦335.00"); // ₦22.50 + ₦137.50 + ₦175.00
  await expect(page.getByTestId("kpi-net")).toHaveText("₦8,665.00");
  await expect(page.getByTestId("kpi-count")).toHaveText("5");
  await expect(page.getByTestId("kpi-rate")).toHaveText("75.0%");
  await expect(page.getByText("3 successful · 1 open · 1 failed · 0 expired")).toBeVisible();
  await expect(page.getByText("44% of money received")).toBeVisible(); // USSD ₦4,000 of ₦9,000
  await expect(page.getByText("56% of money received")).toBeVisible();
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await page.getByRole("tab", { name: "30 days" }).click();
  await expect(page.getByTestId("kpi-gross")).toHaveText("₦9,000.00");
  await page.getByRole("tab", { name: "Today" }).click();
  await expect(page.getByTestId("payments-table").getByRole("row")).toHaveCount(6);
  await page.screenshot({ path: "e2e/screenshots/overview.png", fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/overview-phone.png", fullPage: true });
});
