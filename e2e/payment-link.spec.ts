// A merchant makes a payment link; a customer opens it on a phone, pays by transfer and lands on the checkout page.
import { expect, test, trpcMutation } from "./fixtures";

test("create a link, pay it on a phone by transfer, land on checkout; a deactivated link is a friendly 404", async ({
  page,
  merchant,
  browser,
}) => {
  await page.goto("/links");
  await expect(page.getByRole("heading", { name: "Payment links" })).toBeVisible();
  await page.getByLabel("Title").fill("Jollof party tray");
  await page.getByLabel("Amount (₦)").fill("25000");
  await page.getByLabel("Description (optional)").fill("Serves 10. Delivered in Yaba.");
  await page.getByRole("button", { name: "Create link" }).click();
  const created = page.getByLabel("New link URL");
  await expect(created).toBeVisible();
  const url = await created.inputValue();
  expect(url).toMatch(/\/pay\/[a-z0-9]{10}$/);
  await expect(page.getByRole("link", { name: "Jollof party tray", exact: true })).toBeVisible();
  // The page promises a QR code: the new link shows it at once, and each listed link leads to its own.
  await expect(page.getByRole("status").getByRole("img", { name: `QR code for ${url}` })).toBeVisible();
  await expect(page.getByRole("status").getByRole("link", { name: "Download QR code" })).toHaveAttribute("download", /\.svg$/);
  await expect(page.getByRole("link", { name: "QR code of Jollof party tray" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/links-created-1440.png", fullPage: true });

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const customer = await phone.newPage();
  await customer.goto(url);
  await expect(customer.getByRole("heading", { name: "Jollof party tray" })).toBeVisible();
  await expect(customer.getByText(merchant.name)).toBeVisible();
  await expect(customer.getByTestId("link-amount")).toHaveText("₦25,000.00");
  await customer.screenshot({ path: "e2e/screenshots/pay-link-390x844.png", fullPage: true });

  // Mistakes are named beside their field, and nothing is initiated.
  await customer.getByRole("button", { name: "Pay ₦25,000.00" }).click();
  await expect(customer.getByText("Full name must be the customer's name, 1 to 100 characters")).toBeVisible();
  await expect(customer.getByText("Phone number must be 7 to 15 digits, optionally after a leading +, e.g. 08012345678")).toBeVisible();

  await customer.getByLabel("Full name").fill("Ada Obi");
  await customer.getByLabel("E-mail").fill("ada@example.com");
  await customer.getByLabel("Phone number").fill("0801 234 5678");
  await customer.getByLabel(/USSD/).check();
  await expect(customer.getByLabel("Your bank")).toBeVisible();
  await customer.getByLabel(/Bank transfer/).check();
  await expect(customer.getByLabel("Your bank")).toBeHidden();
  await customer.screenshot({ path: "e2e/screenshots/pay-link-filled-390x844.png", fullPage: true });
  await customer.getByRole("button", { name: "Pay ₦25,000.00" }).click();
  await expect(customer).toHaveURL(/\/checkout\/OWO\d{17}$/);
  // The checkout says what is being paid for: the link's title and description.
  await expect(customer.getByTestId("checkout-link")).toContainText("Jollof party tray");
  await expect(customer.getByTestId("checkout-link")).toContainText("Serves 10. Delivered in Yaba.");
  await customer.screenshot({ path: "e2e/screenshots/pay-link-checkout-390x844.png", fullPage: true });

  // The merchant sees the customer's payment under the link.
  await page.getByRole("link", { name: "Jollof party tray", exact: true }).click();
  await expect(page.getByRole("img", { name: /QR code for/ })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Ada Obi" })).toBeVisible();
  const reference = (await page.getByRole("cell", { name: /^lnk-/ }).textContent()) ?? "";
  expect(reference).toMatch(/^lnk-[a-z0-9]{10}-[a-z0-9]{6}$/);

  // The sandbox bank pays; the checkout follows and sends the customer to Owo's own done page (no redirect URL was set).
  await trpcMutation(page, "sandbox.simulate", { paymentReference: reference, outcome: "pay" });
  await expect(customer).toHaveURL(new RegExp(`/pay/[a-z0-9]{10}/done\\?paymentReference=${reference}&status=SUCCESSFUL`), {
    timeout: 20_000,
  });
  await expect(customer.getByRole("heading", { name: "Payment received" })).toBeVisible();
  // Like the checkout's receipt: the amount, the merchant, the reference and the date.
  const facts = customer.getByTestId("done-facts");
  await expect(facts).toContainText("Paid₦25,000.00");
  await expect(facts).toContainText(`To${merchant.name}`);
  await expect(facts).toContainText(`Reference${reference}`);
  await expect(facts).toContainText(/Date\d{1,2} \w{3} \d{4}, \d\d:\d\d/);
  await customer.screenshot({ path: "e2e/screenshots/pay-link-done-390x844.png", fullPage: true });

  await page.reload();
  await expect(page.getByText("1 payment, ₦25,000.00 collected")).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/link-detail.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/links");
  await expect(page.getByRole("link", { name: "QR code of Jollof party tray" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/links-390.png", fullPage: true });
  await page.getByRole("link", { name: "Jollof party tray", exact: true }).click();
  await page.setViewportSize({ width: 1440, height: 900 });

  page.on("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Deactivate link" }).click();
  await expect(page.getByRole("button", { name: "Activate link again" })).toBeVisible();
  const gone = await customer.goto(url);
  expect(gone?.status()).toBe(404);
  await expect(customer.getByRole("heading", { name: "This payment link is not available" })).toBeVisible();
  await customer.screenshot({ path: "e2e/screenshots/pay-link-404-390x844.png", fullPage: true });
  await phone.close();
});

test("without JavaScript the link still takes a payment: a plain form, the bank asked only for USSD, mistakes named", async ({
  page,
  merchant,
  browser,
}) => {
  expect(merchant.name).not.toBe(""); // signed in: the merchant makes the link
  const link = await trpcMutation<{ url: string }>(page, "links.create", {
    title: "Rice bag",
    minAmount: "1000",
    maxAmount: "50000",
    channels: ["TRANSFER", "USSD"],
  });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, javaScriptEnabled: false });
  const customer = await phone.newPage();
  await customer.goto(link.url);
  await expect(customer.getByText("Enter any amount from ₦1,000.00 to ₦50,000.00.")).toBeVisible();
  await customer.getByLabel("Amount (₦)").fill("60000");
  await customer.getByLabel("Full name").fill("Ada Obi");
  await customer.getByLabel(/USSD/).check();
  await expect(customer.getByLabel("Your bank")).toBeVisible();
  await customer.getByRole("button", { name: "Continue to pay" }).click();
  await expect(customer.getByText("Amount must be from 1000.00 to 50000.00 for this link")).toBeVisible();
  await expect(customer.getByText("E-mail must be an e-mail address, e.g. ada@example.com")).toBeVisible();
  await expect(customer.getByText("Your bank is needed for USSD: choose the bank you will dial from")).toBeVisible();
  await expect(customer.getByLabel("Full name")).toHaveValue("Ada Obi");
  await customer.screenshot({ path: "e2e/screenshots/pay-link-mistakes-390x844.png", fullPage: true });

  await customer.getByLabel("Amount (₦)").fill("2500");
  await customer.getByLabel("E-mail").fill("ada@example.com");
  await customer.getByLabel("Phone number").fill("08012345678");
  await customer.getByLabel("Your bank").selectOption({ label: "Guaranty Trust Bank" });
  await customer.getByRole("button", { name: "Continue to pay" }).click();
  await expect(customer).toHaveURL(/\/checkout\/OWO\d{17}$/);
  await expect(customer.getByTestId("checkout-dial-code")).toHaveText(/^\*737\*/);
  await expect(customer.getByTestId("checkout-amount")).toHaveText("₦2,500.00");
  await phone.close();
});
