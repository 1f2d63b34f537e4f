// A finance team's morning on the sandbox: a day of payments settles clean, then a settlement with every fault a
// provider's can carry; the list shows both with their badges, narrowed by provider account and status, each opens to
// its arithmetic and its lines (linked to their payments), and both download as CSV.
import { readFile } from "node:fs/promises";
import { expect, paidInSandbox, paymentInput, shoot, test, trpcMutation, type Merchant } from "./fixtures";
import type { Page } from "@playwright/test";

const paidTransfer = (page: Page, amount: string) => paidInSandbox(page, { paymentType: "TRANSFER", amount });

test("settlements: a clean day and a faulty one, their badges, arithmetic, lines and CSV", async ({ page, merchant }) => {
  expect((merchant as Merchant).email).toContain("@");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/settlements");
  await expect(page.getByText("No settlements yet")).toBeVisible();

  const first = await paidTransfer(page, "2500");
  await paidTransfer(page, "4000");
  await page.goto("/settlements");
  await page.getByRole("button", { name: "Settle now" }).click();
  await expect(page).toHaveURL(/\/settlements\/stl_/);
  const cleanId = new URL(page.url()).pathname.split("/").pop() ?? "";
  await expect(page.getByTestId("settlement-net")).toHaveText("₦6,202.50"); // ₦6,500 less ₦137.50 and ₦160.00 fees
  const sum = page.getByTestId("settlement-arithmetic");
  await expect(sum).toContainText("Gross (2 sales)₦6,500.00");
  await expect(sum).toContainText("− Fees₦297.50");
  await expect(page.getByText("Matched").first()).toBeVisible();
  await expect(page.getByTestId("settlement-line")).toHaveCount(2);
  await expect(page.getByTestId("settlement-exceptions")).toContainText("every line agrees");
  await shoot(page, "settlement-clean");
  await page.getByRole("link", { name: first }).click();
  await expect(page).toHaveURL(new RegExp(`/payments/${first}$`));

  const short = await paidTransfer(page, "3000");
  const left = await paidTransfer(page, "1200");
  await page.goto("/settlements");
  await page.getByText("Faults", { exact: true }).click();
  await page.getByLabel("Pay short by ₦").fill("10.00");
  await page.getByLabel("Charge more fee on the first line ₦").fill("5.00");
  await page.getByLabel("Report the first line's gross higher ₦").fill("1.00");
  await page.getByLabel("Deduct stamp duty ₦").fill("50.00");
  await page.getByLabel("Leave out payments (references)").fill(left);
  await page.getByLabel("Add a line for no Owo payment").check();
  await page.getByRole("button", { name: "Settle now" }).click();
  await expect(page).toHaveURL(/\/settlements\/stl_/);
  await expect(page.getByTestId("settlement-status")).toHaveText("Paid");
  await expect(page.getByTestId("settlement-line")).toHaveCount(3); // the payment, the unknown line, the stamp duty
  const exceptions = page.getByTestId("settlement-exceptions");
  for (const kind of ["Unknown payment", "Fee mismatch", "Amount mismatch", "Net mismatch"]) await expect(exceptions).toContainText(kind);
  await expect(page.getByTestId("settlement-lines")).toContainText(short);
  await expect(page.getByTestId("settlement-lines")).toContainText("Not matched");
  await shoot(page, "settlement-faults");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("settlement-lines").screenshot({ path: "e2e/screenshots/settlement-lines-390.png" });
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.goto("/settlements");
  const rows = page.getByTestId("settlements-table").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("exceptions");
  await expect(rows.nth(1)).toContainText("Matched");
  // Owo's id, which the books and the balances name a payout by, beside the provider's.
  await expect(rows.nth(1)).toContainText(cleanId);
  await expect(rows.nth(1)).toContainText("net of ₦6,500.00 gross");
  await shoot(page, "settlements");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("settlements-table").screenshot({ path: "e2e/screenshots/settlements-table-390.png" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByLabel("Provider account").selectOption({ label: "Owo Sandbox Bank" });
  await page.getByLabel("Status").selectOption("withheld");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/providerId=sandbox/);
  await expect(page.getByText("No settlements match these filters.")).toBeVisible();
  await page.getByLabel("Status").selectOption("paid");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(2);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Lines CSV" }).click();
  const csv = await readFile(await (await download).path(), "utf8");
  const records = csv.trim().split("\r\n");
  expect(records[0]).toContain("Settlement ID,Provider,Settled (UTC),Kind");
  expect(records).toHaveLength(6); // header, two clean lines, the faulty settlement's payment, unknown and stamp duty lines
  expect(csv).toContain(`,${first},`);
  const sheet = page.waitForEvent("download");
  await page.getByRole("button", { name: "Settlements CSV" }).click();
  expect((await readFile(await (await sheet).path(), "utf8")).trim().split("\r\n")).toHaveLength(3);
});

test("a settlement with refunds: each line shows the core's verdict, and Gross counts the sales it sums", async ({ page, merchant }) => {
  expect(merchant.email).toContain("@");
  const sold = await paidTransfer(page, "20000");
  // One sale paid in two transfers: two credit lines, one sale.
  const inParts = paymentInput(page, { paymentType: "TRANSFER", amount: "123.44" });
  await trpcMutation(page, "initiatePayment", inParts);
  for (const amount of ["100.00", "23.44"])
    await trpcMutation(page, "sandbox.simulate", { paymentReference: inParts.paymentReference, outcome: "pay", amount });
  for (const amount of ["400.00", "100.00"])
    await trpcMutation(page, "payments.refund", { paymentReference: sold, amount, reason: "Part of the order was out of stock" });
  // The sandbox bank pays each refund back within seconds; only then does it settle them.
  await page.goto(`/payments/${sold}`);
  await expect(page.getByTestId("refunds").getByRole("listitem")).toHaveCount(2);
  for (const refund of await page.getByTestId("refunds").getByRole("listitem").all())
    await expect(refund).toContainText("Paid back", { timeout: 15_000 });

  await page.goto("/settlements");
  await page.getByRole("button", { name: "Settle now" }).click();
  await expect(page).toHaveURL(/\/settlements\/stl_/);
  await expect(page.getByTestId("settlement-line")).toHaveCount(5);
  await expect(page.getByTestId("settlement-exceptions")).toContainText("every line agrees");
  // Reconciliation compares sales with Owo's credits; a refund the bank deducted raises nothing, so no line says otherwise.
  await expect(page.getByTestId("settlement-lines")).not.toContainText("Not matched");
  const refunds = page.getByTestId("settlement-line").filter({ hasText: "Refund" });
  await expect(refunds).toHaveCount(2);
  // Each refund line names the payment it paid back, found by the refund the bank paid.
  for (const line of await refunds.all()) await expect(line).toContainText("Matched");
  await expect(page.getByTestId("settlement-line").filter({ hasText: "Payment" }).filter({ hasText: "Matched" })).toHaveCount(3);
  const sum = page.getByTestId("settlement-arithmetic");
  await expect(sum).toContainText("Gross (2 sales)₦20,123.44");
  await expect(sum).toContainText("− Refunds₦500.00");
  await shoot(page, "settlement-refunds");
});
