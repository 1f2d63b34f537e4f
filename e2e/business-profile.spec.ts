// The business profile: an owner names the business, gives a support e-mail and phone and uploads a logo on the
// Business page; the customer then sees them on the payment link's page, the checkout and the receipt.
import { png } from "../server/testing/images";
import { expect, test, trpcMutation } from "./fixtures";

for (const [name, viewport] of [
  ["desktop", { width: 1440, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`a business profile set by its owner, seen by its customers (${name})`, async ({ page, merchant, browser }) => {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "Business", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Business", exact: true })).toBeVisible();

    const business = `${merchant.name} Kitchen`;
    await page.getByLabel("Business name").fill(business);
    await page.getByLabel("Support e-mail").fill("help@mamaput.example.ng");
    await page.getByLabel("Support phone").fill("call us");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByText("Support phone must be a phone number of 7 to 15 digits")).toBeVisible();
    await page.getByLabel("Support phone").fill("+234 801-234-5678");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByText("Saved. Checkouts and receipts show it from now on.")).toBeVisible();
    await expect(page.getByTestId("merchant-name")).toHaveText(business);

    // The logo: an SVG (it can carry script) is refused in words; a PNG is kept and shown.
    const logo = page.getByLabel("Logo file");
    await logo.setInputFiles({
      name: "logo.svg",
      mimeType: "image/svg+xml",
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await page.getByRole("button", { name: "Upload logo" }).click();
    await expect(page.locator(".form-error")).toHaveText("The logo must be a PNG, JPEG or WebP image (SVG and other files are refused).");
    await logo.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png(160, 48) });
    await page.getByRole("button", { name: "Upload logo" }).click();
    await expect(page.getByText("Logo saved.")).toBeVisible();
    const preview = page.getByTestId("business-preview");
    await expect(preview.getByTestId("business-mark")).toHaveText(business);
    await expect(preview.getByTestId("support-contact")).toContainText("help@mamaput.example.ng · +234 801-234-5678");
    const shown = preview.locator("img");
    await expect(shown).toHaveJSProperty("naturalWidth", 160);
    await page.screenshot({ path: `e2e/screenshots/business-${name}.png`, fullPage: true });

    // The customer, on a link of the business: its logo and name at the top, its support contact below.
    const link = await trpcMutation<{ url: string; id: string }>(page, "links.create", {
      title: "Party jollof tray",
      amount: "25000",
      channels: ["TRANSFER"],
    });
    const customer = await (await browser.newContext({ viewport })).newPage();
    await customer.goto(link.url);
    const mark = customer.getByTestId("business-mark");
    await expect(mark).toHaveText(business);
    await expect(mark.locator("img")).toHaveJSProperty("naturalWidth", 160);
    const support = customer.getByTestId("support-contact");
    await expect(support.getByRole("link", { name: "help@mamaput.example.ng" })).toHaveAttribute("href", "mailto:help@mamaput.example.ng");
    await expect(support.getByRole("link", { name: "+234 801-234-5678" })).toHaveAttribute("href", "tel:+2348012345678");
    await customer.screenshot({ path: `e2e/screenshots/business-pay-link-${name}.png`, fullPage: true });

    await customer.getByLabel("Full name").fill("Ada Obi");
    await customer.getByLabel("E-mail").fill("ada@example.com");
    await customer.getByLabel("Phone number").fill("0801 234 5678");
    await customer.getByRole("button", { name: "Pay ₦25,000.00" }).click();
    await expect(customer).toHaveURL(/\/checkout\/OWO\d{17}$/);
    await expect(mark.locator("img")).toHaveJSProperty("naturalWidth", 160);
    await expect(support).toContainText("help@mamaput.example.ng · +234 801-234-5678");
    await customer.screenshot({ path: `e2e/screenshots/business-checkout-${name}.png`, fullPage: true });

    // Paid: the done page (the link named no redirect) is the receipt, with the same business on it.
    await page.goto(`/links/${link.id}`);
    const reference = (await page.getByRole("cell", { name: /^lnk-/ }).textContent()) ?? "";
    await trpcMutation(page, "sandbox.simulate", { paymentReference: reference, outcome: "pay" });
    await expect(customer).toHaveURL(/\/done\?paymentReference=/, { timeout: 20_000 });
    await expect(customer.getByRole("heading", { name: "Payment received" })).toBeVisible();
    await expect(mark).toHaveText(business);
    await expect(mark.locator("img")).toHaveJSProperty("naturalWidth", 160);
    await expect(customer.getByTestId("done-facts")).toContainText(`To${business}`);
    await expect(support).toContainText("help@mamaput.example.ng · +234 801-234-5678");
    await customer.screenshot({ path: `e2e/screenshots/business-receipt-${name}.png`, fullPage: true });
  });
}
