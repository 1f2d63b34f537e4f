// The Balances page (#23): what the sandbox bank holds unsettled and what it paid out, a 30-day picture, the ledger
// entries, and their CSV for the merchant's accountant.
import { readFileSync } from "node:fs";
import { expect, paidInSandbox, test, trpcMutation } from "./fixtures";

test("unsettled and paid out after a sandbox payout, the entries, and their CSV download", async ({
  page,
  request,
  merchant: _merchant,
}) => {
  const pay = (amount: string) => paidInSandbox(page, { paymentType: "TRANSFER", amount });
  await pay("24000");
  await pay("1500");
  // The bank pays out what it holds: ₦24,000.00 − ₦460.00 + ₦1,500.00 − ₦22.50.
  await trpcMutation(page, "sandbox.settle", {});
  const later = await pay("2500");

  await page.getByRole("navigation").getByRole("link", { name: "Balances" }).click();
  await expect(page).toHaveURL(/\/balances$/);
  await expect(page.getByTestId("unsettled-sandbox")).toContainText("₦2,362.50"); // ₦2,500.00 − ₦137.50, not paid out yet
  await expect(page.getByTestId("paid-out")).toContainText("₦25,017.50");
  await expect(page.locator(".recharts-line-curve").first()).toBeVisible();
  const entries = page.getByTestId("ledger-entries");
  const rows = entries.locator(":scope > tbody > tr"); // each entry's postings are a table of their own
  await expect(rows).toHaveCount(4); // three credits and the payout
  await expect(rows.nth(0)).toContainText("Payment received");
  await expect(rows.nth(0)).toContainText(later);
  await expect(rows.nth(1)).toContainText("Payout");
  // Postings read as on a payment's page: Debit and Credit columns, never a signed amount.
  const side = (entry: number, account: string) => rows.nth(entry).getByRole("row").filter({ hasText: account }).getByRole("cell");
  await expect(side(0, "Sales")).toHaveText(["Sales", "", "₦2,500.00"]);
  await expect(side(0, "Fees")).toHaveText(["Fees", "₦137.50", ""]);
  await expect(side(1, "Paid out to your bank")).toHaveText(["Paid out to your bank", "₦25,017.50", ""]);
  await expect(side(1, "Sandbox bank (unsettled)")).toHaveText(["Sandbox bank (unsettled)", "", "₦25,017.50"]);
  await expect(rows.nth(1).getByRole("columnheader")).toHaveText(["Account", "Debit", "Credit"], { ignoreCase: true });
  await expect(entries).not.toContainText("−");
  await expect(page.getByTestId("ledger-head")).toContainText("Chain head #4");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "e2e/screenshots/balances.png", fullPage: true });

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^owo-ledger-test-\d{8}-\d{4}\.csv$/);
  const lines = readFileSync(await file.path(), "utf8")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe(
    "Posted (UTC),Sequence,Entry,Kind,Reason,Payment reference,Refund reference,Settlement,Account,Amount (NGN),Hash,Posted (Lagos time)",
  );
  expect(lines).toHaveLength(1 + 3 * 4 + 2); // each credit's four postings, the payout's two
  expect(lines.filter((l) => l.includes(",settlement,")).map((l) => l.split(",").slice(8, 10))).toEqual([
    ["bank", "25017.50"],
    ["provider:sandbox", "-25017.50"],
  ]);

  // Refusals speak API.md's envelope, naming the field, like every other door.
  const origin = new URL(page.url()).origin;
  const badDay = await page.request.get(`${origin}/api/exports/ledger-entries?from=2026-02-30`);
  expect(badDay.status()).toBe(400);
  expect(await badDay.json()).toMatchObject({ status: "ERROR", data: { code: "S5", errors: [{ field: "from" }] } });
  const signedOut = await request.get(`${origin}/api/exports/ledger-entries`); // no session cookie
  expect(signedOut.status()).toBe(401);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/balances-phone.png", fullPage: true });
  // On a phone the reference folds under the entry's name, and is still the link to its payment.
  const link = rows.nth(0).getByRole("link", { name: later });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute("href", `/payments/${later}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  for (const id of ["unsettled-sandbox", "paid-out"]) {
    const value = page.getByTestId(id).locator("strong");
    expect((await value.boundingBox())?.height ?? 99, `${id} on one line`).toBeLessThan(40);
  }
});
