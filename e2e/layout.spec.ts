// Layout a merchant's eyes catch (#26): the team's two-factor checkbox beside its words, the dashboard at phone width
// (every nav link in sight, the TEST MODE badge and the money on one line), the two-factor code field and buttons their own
// width, /docs/providers' code inside the page at 390 px, and a favicon.
import type { Locator, Page } from "@playwright/test";
import { expect, paymentInput, test, trpcMutation } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const box = async (l: Locator) => (await l.boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
/** One line of text: not taller than its line height allows. */
async function oneLine(l: Locator) {
  const [height, lineHeight] = await l.evaluate((e) => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).lineHeight)]);
  expect(height, (await l.textContent()) ?? "").toBeLessThan(lineHeight * 1.5);
}
const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);

test("the team's 'Require two-factor' checkbox sits beside its words", async ({ page, merchant }) => {
  expect(merchant.name).toBeTruthy();
  await page.goto("/team");
  const checkbox = page.getByRole("checkbox", { name: /Require two-factor sign-in/ });
  const label = page.locator("label").filter({ has: checkbox });
  const [c, l] = [await box(checkbox), await box(label)];
  expect(c.width).toBeLessThan(30);
  expect(c.x - l.x).toBeLessThan(5);
  await oneLine(label);
  await label.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "e2e/screenshots/team-checkbox-1440.png" });
});

test("at 390 px the nav shows every link, the TEST MODE badge and the money stay on one line, nothing scrolls sideways", async ({
  page,
  merchant,
}) => {
  expect(merchant.name).toBeTruthy();
  // A six-figure sale, so the overview has figures as wide as the issue's ₦680,699.90.
  const sale = paymentInput(page, { amount: "680699.90" });
  await trpcMutation(page, "initiatePayment", sale);
  await trpcMutation(page, "sandbox.simulate", { paymentReference: sale.paymentReference, outcome: "pay" });
  await page.setViewportSize(PHONE);
  await page.goto("/dashboard");
  await expect(page.getByTestId("kpi-gross")).toHaveText("₦680,699.90");
  for (const link of await page.locator(".sidebar nav a").all()) {
    const b = await box(link);
    expect(b.x, (await link.textContent()) ?? "").toBeGreaterThanOrEqual(0);
    expect(b.x + b.width, (await link.textContent()) ?? "").toBeLessThanOrEqual(PHONE.width);
  }
  await oneLine(page.locator(".mode-badge"));
  for (const figure of await page.locator("[data-testid^='kpi-'], .content dd").all()) await oneLine(figure);
  await noSidewaysScroll(page);
  await page.screenshot({ path: "e2e/screenshots/overview-390.png", fullPage: true });
});

test("the two-factor code field and its buttons keep their own width", async ({ page, merchant }) => {
  expect(merchant.name).toBeTruthy();
  await page.goto("/account");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const code = page.locator("input[autocomplete='one-time-code']").first();
  await expect(code).toBeVisible();
  const card = await box(page.locator(".content"));
  expect((await box(code)).width).toBeLessThan(200);
  for (const button of await page.locator(".content .stack > button").all()) expect((await box(button)).width).toBeLessThan(card.width / 2);
  await code.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "e2e/screenshots/two-factor-1440.png" });
  await page.setViewportSize(PHONE);
  await code.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "e2e/screenshots/two-factor-390.png" });
});

test("/docs/providers at 390 px: every code block stays inside the page (long lines scroll inside it)", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/docs/providers");
  for (const pre of await page.locator("pre").all()) expect((await box(pre)).x + (await box(pre)).width).toBeLessThanOrEqual(PHONE.width);
  await noSidewaysScroll(page);
  await page.screenshot({ path: "e2e/screenshots/docs-providers-390.png", fullPage: true });
});

test("/favicon.ico is served, so no page asks for a missing one", async ({ request }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/^image\//);
});

test("/payments/new at 390 px: the form card inside the page, the two ways to pay stacked at the card's width", async ({
  page,
  merchant,
}) => {
  expect(merchant.name).toBeTruthy();
  await page.setViewportSize(PHONE);
  await page.goto("/payments/new");
  const form = page.locator("form.card");
  const card = await box(form);
  expect(card.x + card.width).toBeLessThanOrEqual(PHONE.width);
  for (const channel of await form.locator("fieldset label").all()) {
    const b = await box(channel);
    expect(b.x + b.width, (await channel.textContent()) ?? "").toBeLessThanOrEqual(card.x + card.width);
    // Each way to pay reads as a card, its name over two or three lines of words, not squeezed into a column.
    expect(b.width, (await channel.textContent()) ?? "").toBeGreaterThan(card.width * 0.7);
    expect(b.height, (await channel.textContent()) ?? "").toBeLessThan(110);
  }
  await noSidewaysScroll(page);
  // Sent empty, the bank is outlined in red like every other field in error.
  await page.getByRole("button", { name: "Create dial code" }).click();
  const bank = page.getByLabel("Customer's bank");
  await expect(bank).toHaveAttribute("aria-invalid", "true");
  const border = (l: Locator) => l.evaluate((e) => getComputedStyle(e).borderTopColor);
  expect(await border(bank)).toBe(await border(page.getByLabel("Amount")));
  expect(await border(bank)).not.toBe(await border(page.getByLabel("Payment reference")));
  await page.screenshot({ path: "e2e/screenshots/new-payment-390.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "e2e/screenshots/new-payment-1440.png", fullPage: true });
});

test("/account/sessions at 390 px: each session inside its card, its button too", async ({ page, merchant }) => {
  expect(merchant.name).toBeTruthy();
  await page.setViewportSize(PHONE);
  await page.goto("/account/sessions");
  const session = page.getByTestId("session");
  await expect(session).toHaveCount(1);
  const card = await box(page.locator(".content .card"));
  for (const part of [session, session.getByRole("button", { name: "Sign out this session" })]) {
    const b = await box(part);
    expect(b.x).toBeGreaterThanOrEqual(card.x);
    expect(b.x + b.width).toBeLessThanOrEqual(card.x + card.width);
  }
  await expect(session.locator("td:visible")).toHaveCount(2); // the device with its address and last seen, the button
  await expect(session).toContainText("127.0.0.1 · last seen");
  await noSidewaysScroll(page);
  await page.screenshot({ path: "e2e/screenshots/sessions-390.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "e2e/screenshots/sessions-1440.png", fullPage: true });
});
