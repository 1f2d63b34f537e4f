// A merchant creates a USSD payment in the dashboard, sees the dial code, pays it with the sandbox bank and follows it:
// status, timeline and callback delivery; then finds it in the list, filters, searches and exports it.
import { readFile } from "node:fs/promises";
import { createUssdPayment, expect, paymentInput, signUp, test, trpcMutation } from "./fixtures";

test("create a USSD payment, pay it with the sandbox bank, see it succeed, callback delivered, in the list and its CSV", async ({
  page,
  merchant,
  request,
}) => {
  await page.goto("/payments/new");
  // The one initiation schema refuses it on the server, field by field (the browser carries none of its code), and the
  // form says each in a person's words rather than the wire's.
  await page.getByRole("button", { name: "Create dial code" }).click();
  await expect(page.getByText("Amount must be in naira, such as 1,500.00 or 1500")).toBeVisible();
  await expect(page.getByText("Customer's bank is needed for USSD: choose the bank your customer will dial from.")).toBeVisible();
  await page.getByLabel("Amount").fill("5");
  await page.getByRole("button", { name: "Create dial code" }).click();
  await expect(page.getByText(/^Amount must be from ₦[\d,]+\.\d\d to ₦[\d,]+\.\d\d for USSD\.$/)).toBeVisible();
  await page.getByLabel("Amount").fill("");

  const origin = new URL(page.url()).origin;
  const reference = `ussd-${Date.now()}`;
  await createUssdPayment(page, "1500", reference);

  await expect(page).toHaveURL(new RegExp(`/payments/${reference}\\?created=1$`));
  const dial = page.getByTestId("dial-code");
  await expect(dial).toHaveText(/^\*737\*000\*\d{8}#$/);
  const code = (await dial.textContent()) ?? "";
  await expect(dial).toHaveAttribute("href", `tel:${code.replace("#", "%23")}`);
  await expect(page.getByAltText(`QR code that dials ${code}`)).toBeVisible();
  await expect(page.getByTestId("payment-status")).toHaveText("Pending");
  await expect(page.getByRole("timer")).toHaveText(/^\d+:\d\d$/);
  await page.screenshot({ path: "e2e/screenshots/payment-detail-pending.png", fullPage: true });

  await page.getByRole("button", { name: "Customer pays ₦1,500.00" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Successful");
  await expect(page.getByTestId("amount-paid")).toHaveText("₦1,500.00");
  await expect(page.getByTestId("fee-amount")).toHaveText("₦22.50"); // as the CSV will have it, below
  await expect(page.getByTestId("net-amount")).toHaveText("₦1,477.50");
  await expect(page.getByTestId("timeline")).toContainText("Payment created for ₦1,500.00");
  await expect(page.getByTestId("timeline")).toContainText("₦1,500.00 received from Chiamaka Obi; paid in full");
  await expect(page.getByRole("timer")).toHaveCount(0);

  // The callback reaches this server's health check (2xx) and shows as delivered; a re-send adds an attempt.
  const delivery = page.getByTestId("deliveries").getByRole("listitem").filter({ hasText: "payment.successful" });
  await expect(delivery).toContainText("Delivered", { timeout: 20_000 });
  await expect(delivery).toContainText("1 attempt");
  await delivery.getByRole("button", { name: "Re-send" }).click();
  await expect(delivery).toContainText("2 attempts", { timeout: 20_000 });
  await page.screenshot({ path: "e2e/screenshots/payment-detail.png", fullPage: true });

  // A second, declined payment to filter against.
  await page.goto("/payments/new");
  await page.getByLabel("Amount").fill("2000");
  await page.getByLabel("Customer's bank").selectOption({ label: "Access Bank (*901#)" });
  await page.getByLabel("Customer name").fill("Bayo Ade");
  await page.getByLabel("Mobile number").fill("08050000000");
  await page.getByLabel("E-mail").fill("bayo@example.com");
  await page.getByRole("button", { name: "Create dial code" }).click();
  await page.getByRole("button", { name: "Bank declines" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Failed");

  await page.goto("/payments");
  const table = page.getByTestId("payments-table");
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("row").nth(1)).toContainText("Failed");
  await expect(table.getByRole("row").nth(2)).toContainText(reference);
  await page.screenshot({ path: "e2e/screenshots/payments-list.png", fullPage: true });

  await page.getByLabel("Search payments").fill("chiamaka@");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/search=chiamaka%40/);
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText(reference);

  await page.goto("/payments?status=FAILED");
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText("Bayo Ade");
  await page.goto("/payments?minAmount=abc");
  await expect(page.getByText("Min ₦ must be naira with at most 2 decimals")).toBeVisible();

  await page.goto(`/payments?status=SUCCESSFUL`);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  await expect(page.getByTestId("export-progress")).toContainText("1 / 1 rows");
  const csv = await readFile((await (await download).path()) ?? "", "utf8");
  const lines = csv.trim().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain("Payment reference");
  // Fee, net and refundable came later, then the Lagos times, so they are last: the columns before them stay where
  // merchants' sheets had them.
  expect(lines[0]).toContain("Amount refunded (NGN),Customer name");
  expect(lines[0]).toMatch(/,Fee \(NGN\),Net \(NGN\),Refundable \(NGN\),Created \(Lagos time\),Paid \(Lagos time\)$/);
  expect(lines[1]).toContain(`${reference},`);
  // Fee and net as the payment's page showed them (the sandbox bank's 1.5%), and all of it still refundable.
  expect(lines[1]).toContain("SUCCESSFUL,1500.00,1500.00,0.00,0.00,Chiamaka Obi");
  expect(lines[1]).toMatch(/,22\.50,1477\.50,1500\.00,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  await expect(page.getByTestId("merchant-name")).toHaveText(merchant.name);

  // The export's refusals speak API.md's envelope, naming the field at fault, like every other door.
  const badFilter = await page.request.get(`${origin}/api/exports/payments?minAmount=abc`);
  expect(badFilter.status()).toBe(400);
  expect(await badFilter.json()).toMatchObject({ status: "ERROR", data: { code: "S5", errors: [{ field: "minAmount" }] } });
  const signedOut = await request.get(`${origin}/api/exports/payments`); // no session cookie
  expect(signedOut.status()).toBe(401);
  expect(await signedOut.json()).toMatchObject({ status: "ERROR", data: { code: "S1", message: "Sign in to export payments" } });
});

test("a phone-sized dashboard shows the payment with tap-to-dial", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signUp(page);
  const issued = await trpcMutation(page, "initiatePayment", paymentInput(page, { bankCode: "057", amount: "7500" }));
  await page.goto(`/payments/${issued.paymentReference}`);
  await expect(page.getByTestId("dial-code")).toHaveText(issued.ussdDailCode ?? "");
  await expect(page.getByRole("link", { name: "Dial", exact: true })).toHaveAttribute(
    "href",
    `tel:${(issued.ussdDailCode ?? "").replace("#", "%23")}`,
  );
  await page.screenshot({ path: "e2e/screenshots/payment-detail-phone.png", fullPage: true });
  await page.goto("/payments");
  await expect(page.getByTestId("payments-table")).toContainText(issued.paymentReference ?? "");
  await page.screenshot({ path: "e2e/screenshots/payments-list-phone.png", fullPage: true });
  await context.close();
});
