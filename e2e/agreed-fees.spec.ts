// The fee schedule a merchant agreed with a provider, on the Providers page: a connected Paystack account (its double)
// has none, a percentage with a sign is refused on its field in words, the schedule saved reads back as a sentence and
// stays in the fields after a reload, and Remove takes it away.
import { expect, test } from "./fixtures";
import { paystackDoubleFor } from "./paystack-double";

const SECRET_KEY = "sk_test_e2e_agreed_fees_double";
const double = paystackDoubleFor(SECRET_KEY);

test("set, read back and remove a provider account's agreed fee schedule", async ({ page, merchant: _merchant }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/providers");
  await double.connect(page);

  const form = page.getByTestId("provider-paystack").getByTestId("agreed-fees-form");
  await expect(form.getByTestId("agreed-fees")).toContainText("None set: the live fee quote leaves this account out");
  await form.getByLabel("Percent of each payment").fill("1.5%");
  await form.getByLabel("Flat fee (₦)").fill("100");
  await form.getByRole("button", { name: "Save agreed fees" }).click();
  await expect(form.locator(".field-error")).toHaveText(
    'Percent of each payment must be a percentage from 0 to 100 with at most 2 decimals, e.g. "1.5"',
  );

  await form.getByLabel("Percent of each payment").fill("1.5");
  await form.getByLabel("Flat fee waived under (₦)").fill("2500");
  await form.getByLabel(/Fee cap/).fill("2000");
  await form.getByRole("button", { name: "Save agreed fees" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved");
  await expect(form.getByTestId("agreed-fees")).toHaveText("1.50% + ₦100.00 from ₦2,500.00, capped at ₦2,000.00");
  await page.reload();
  await expect(form.getByLabel("Percent of each payment")).toHaveValue("1.50");
  await expect(form.getByLabel(/Fee cap/)).toHaveValue("2000.00");
  await page.screenshot({ path: "e2e/screenshots/agreed-fees.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/agreed-fees-390.png", fullPage: true });

  await form.getByRole("button", { name: "Remove" }).click();
  await expect(form.getByTestId("agreed-fees")).toContainText("None set");
});
