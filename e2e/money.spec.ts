// Money where merchants look (#23): a merchant who took ₦24,000 and refunded ₦14,000 reads gross, fees, refunds and
// net on the overview, not "Volume ₦24,000.00" alone, and the payments list marks what went back.
import type { Page } from "@playwright/test";
import { expect, paidInSandbox, paymentInput, shoot, test, trpcMutation } from "./fixtures";

const paid = (page: Page, amount: string) => paidInSandbox(page, { paymentType: "TRANSFER", amount });

async function refunded(page: Page, paymentReference: string, amount: string): Promise<void> {
  await trpcMutation(page, "payments.refund", { paymentReference, amount, reason: "Returned" });
  const origin = new URL(page.url()).origin;
  // The sandbox bank pays it back within seconds; the list shows what is PROCESSED.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(
          `${origin}/api/trpc/verifyPayment?input=${encodeURIComponent(JSON.stringify({ json: { paymentReference } }))}`,
        );
        return ((await res.json()) as { result?: { data: { json: { payments: { amountRefunded: string } } } } }).result?.data.json.payments
          .amountRefunded;
      },
      { timeout: 15_000 },
    )
    .toBe(amount);
}

test("gross, fees, refunds and net on the overview; refunded and partly refunded payments marked in the list", async ({
  page,
  merchant: _merchant,
}) => {
  const big = await paid(page, "24000");
  const small = await paid(page, "1500");
  const untouched = await paid(page, "2500");
  await refunded(page, big, "14000.00");
  await refunded(page, small, "1500.00");

  await page.goto("/dashboard");
  await page.getByRole("tab", { name: "Today" }).click();
  const money = page.getByTestId("money");
  await expect(money.getByTestId("kpi-gross")).toHaveText("₦28,000.00");
  // ₦460.00 + ₦22.50 + ₦137.50: fees are not given back with a refund.
  await expect(money.getByTestId("kpi-fees")).toHaveText("−₦620.00");
  await expect(money.getByTestId("kpi-refunds")).toHaveText("−₦15,500.00");
  await expect(money.getByTestId("kpi-net")).toHaveText("₦11,880.00");
  await expect(page.getByRole("heading", { name: "Net volume" })).toBeVisible();
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "e2e/screenshots/money-overview.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/money-overview-phone.png", fullPage: true });
  // At phone width each figure stays on one line.
  for (const id of ["kpi-gross", "kpi-fees", "kpi-refunds", "kpi-net"]) {
    const box = await money.getByTestId(id).boundingBox();
    expect(box?.height ?? 99, `${id} on one line`).toBeLessThan(40);
  }

  await page.goto("/payments");
  const row = (reference: string) => page.getByTestId("payments-table").getByRole("row").filter({ hasText: reference });
  await expect(row(big).getByText("Partly refunded")).toBeVisible();
  await expect(row(small).getByText("Refunded", { exact: true })).toBeVisible();
  await expect(row(untouched).getByText(/refunded/i)).toHaveCount(0);
  // What the merchant keeps of each, as its page has it: fees stay with the provider when money goes back.
  await expect(row(big).getByTestId("net")).toContainText("₦9,540.00");
  await expect(row(big).getByTestId("net")).toContainText("fee ₦460.00");
  await expect(row(small).getByTestId("net")).toContainText("−₦22.50");
  await expect(row(untouched).getByTestId("net")).toContainText("₦2,362.50");
  // On a phone the Net column folds under the amount.
  await expect(row(big).getByTestId("net-narrow")).toBeVisible();
  await expect(row(big).getByTestId("net-narrow")).toHaveText("net ₦9,540.00");
  await page.screenshot({ path: "e2e/screenshots/money-payments-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(row(big).getByTestId("net")).toBeVisible();
  await expect(row(big).getByTestId("net-narrow")).toBeHidden();
  await page.screenshot({ path: "e2e/screenshots/money-payments.png", fullPage: true });
});

test("an overpayment's excess is listed as received and refundable", async ({ page, merchant: _merchant }) => {
  const overpaid = paymentInput(page, { paymentType: "TRANSFER", amount: "5000" });
  await trpcMutation(page, "initiatePayment", overpaid);
  await trpcMutation(page, "sandbox.simulate", { paymentReference: overpaid.paymentReference, outcome: "pay", amount: "5500" });
  const exact = await paid(page, "1500");

  await page.goto("/payments");
  const row = (reference: unknown) =>
    page
      .getByTestId("payments-table")
      .getByRole("row")
      .filter({ hasText: String(reference) });
  await expect(row(overpaid.paymentReference).getByTestId("refund-advised")).toHaveText("₦5,500.00 received · ₦500.00 refundable");
  await expect(row(exact).getByTestId("refund-advised")).toHaveCount(0);
  await shoot(page, "money-refund-advised");
});
