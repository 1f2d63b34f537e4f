// The demo as `npm run seed` makes it, through the dashboard: a seeded successful payment's page says its callbacks
// were never due (sample data written straight into the database), not "Nothing sent yet" as if they were coming.
import { DEMO, DEMO_SUPPORT } from "../server/demo/demo-account";
import { startAnotherOwo } from "./another-owo";
import { expect, test } from "./fixtures";

test("a seeded successful payment says why no callback was sent; its checkout shows the demo's support contact (1440, 390 px)", async ({
  page,
}) => {
  test.setTimeout(180_000); // the seed writes a month of sample payments before the server starts
  const owo = await startAnotherOwo({}, { seeded: true });
  try {
    await page.goto(`${owo.url}/signin`);
    await page.getByLabel("E-mail").fill(DEMO.email);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("merchant-name")).toHaveText(DEMO.name);

    await page.goto(`${owo.url}/payments?status=SUCCESSFUL`);
    await page
      .getByRole("link", { name: /^demo-/ })
      .first()
      .click();
    await expect(page.getByTestId("payment-status")).toHaveText("Successful");
    const callbacks = page.locator("section", { has: page.getByRole("heading", { name: "Callbacks" }) });
    await expect(callbacks).toContainText(
      "None: this is sample data the demo seed wrote straight into the database, so no callback was sent for it.",
    );
    await expect(callbacks).not.toContainText("Nothing sent yet");

    // The demo's business profile has a support contact, so its checkouts show one from the start.
    const checkoutUrl =
      (await page
        .getByRole("link", { name: /\/checkout\// })
        .first()
        .getAttribute("href")) ?? "";
    const customer = await page.context().newPage();
    await customer.goto(checkoutUrl);
    await expect(customer.getByTestId("support-contact")).toContainText(`${DEMO_SUPPORT.supportEmail} · ${DEMO_SUPPORT.supportPhone}`);
    await customer.close();
    for (const [name, viewport] of [
      ["desktop", { width: 1440, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await callbacks.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `e2e/screenshots/seeded-payment-${name}.png`, fullPage: true });
    }
  } finally {
    owo.stop();
  }
});
