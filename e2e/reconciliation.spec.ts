// Reconciliation on a sandbox day: the period report with its chart, the exceptions a faulty settlement leaves,
// filtered and one resolved with a write-off, and a bank statement previewed, imported, and sent again to no effect.
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, paidInSandbox, shoot, test, trpcMutation } from "./fixtures";

const paidTransfer = (page: Page, amount: string) => paidInSandbox(page, { paymentType: "TRANSFER", amount });

const lagosToday = () => new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);

test("reconciliation: the report, the queue, a write-off, and a bank statement previewed then imported", async ({ page, merchant }) => {
  expect(merchant.email).toContain("@");
  await page.setViewportSize({ width: 1440, height: 900 });
  await paidTransfer(page, "2500");
  await paidTransfer(page, "4000");
  const clean = await trpcMutation<{ netAmount: string; settlementId: string }>(page, "sandbox.settle", {});
  expect(clean.netAmount).toBe("6202.50");
  await paidTransfer(page, "3000");
  await trpcMutation(page, "sandbox.settle", { feeBy: "5.00", shortBy: "10.00", unknownLine: true });

  await page.goto("/reconciliation");
  const report = page.getByTestId("report");
  await expect(report).toContainText("+ Credits₦9,500.00");
  await expect(report).toContainText("− Fees₦442.50");
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();
  const queue = page.getByTestId("exception");
  await expect(queue).toHaveCount(3);
  for (const kind of ["Fee mismatch", "Net mismatch", "Unknown payment"])
    await expect(page.getByTestId("exceptions-table")).toContainText(kind);
  await shoot(page, "reconciliation");

  await page.getByLabel("Kind").selectOption({ label: "Fee mismatch" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(queue).toHaveCount(1);
  await expect(queue).toContainText("₦150.00"); // ₦145.00 expected, ₦150.00 charged
  await queue.getByRole("button", { name: "Resolve" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Resolve" }).click();
  await expect(dialog).toContainText("Note");
  await dialog.getByLabel("What was done about it").fill("Sandbox overcharged ₦5.00; written off");
  await dialog.getByLabel(/Write the difference off/).check();
  await page.screenshot({ path: "e2e/screenshots/reconciliation-resolve.png" });
  await dialog.getByRole("button", { name: "Resolve" }).click();
  await expect(page.getByText("No exceptions match")).toBeVisible();
  await page.locator("select[name=status]").selectOption("all");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(queue).toContainText("Resolved");
  await expect(queue).toContainText("Sandbox overcharged ₦5.00; written off");
  await expect(report).toContainText("− Adjustments₦5.00"); // the write-off, booked by the core

  const csv = [
    "date,amount,reference,narration",
    `${lagosToday()},${clean.netAmount},NIP/TRF/1,OWO SANDBOX SETTLEMENT`,
    `${lagosToday()},999.00,NIP/TRF/2,SANDBOX PAYOUT`,
    `${lagosToday()},"12,000.00",POS/3,SHOP TAKINGS`,
  ].join("\n");
  const statement = { name: "statement.csv", mimeType: "text/csv", buffer: Buffer.from(csv) };
  await page.getByLabel("Account number (NUBAN)").fill("0123456789");
  await page.getByLabel(/Statement CSV/).setInputFiles(statement);
  await page.getByRole("button", { name: "Preview matches" }).click();
  const preview = page.getByTestId("statement-preview");
  await expect(preview.getByTestId("statement-line")).toHaveCount(3);
  await expect(preview.getByTestId("statement-line").nth(0)).toContainText("Matched");
  await expect(preview.getByTestId("statement-line").nth(0)).toContainText(clean.settlementId);
  await expect(preview.getByTestId("statement-line").nth(1)).toContainText("No settlement");
  await expect(preview.getByTestId("statement-line").nth(2)).toContainText("Other income");
  await shoot(page, "reconciliation-statement");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("statement-upload").screenshot({ path: "e2e/screenshots/reconciliation-statement-upload-390.png" });
  await page.getByTestId("exceptions-table").screenshot({ path: "e2e/screenshots/reconciliation-exceptions-390.png" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("button", { name: "Import 3 lines" }).click();
  await expect(page.getByRole("status")).toContainText("Imported: 1 line matched a settlement, 1 line flagged.");
  await page.goto("/reconciliation");
  await expect(page.getByTestId("exceptions-table")).toContainText("Not on the bank statement");

  await page.getByLabel("Account number (NUBAN)").fill("0123456789");
  await page.getByLabel(/Statement CSV/).setInputFiles(statement);
  await page.getByRole("button", { name: "Preview matches" }).click();
  await expect(page.getByTestId("statement-preview").getByText("Already imported: ignored")).toHaveCount(3);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Report CSV" }).click();
  const sheet = await readFile(await (await download).path(), "utf8");
  expect(sheet).toContain("\r\nPlus credits,9500.00\r\n");
  expect(sheet).toContain("fee_mismatch");
  // Each exception's times in UTC and, last, on a Lagos clock (UTC+1), the days the report's period counts.
  const records = sheet.split("\r\n");
  expect(records.find((r) => r.startsWith("Exception ID,"))).toMatch(/,Note,Opened \(Lagos time\),Resolved \(Lagos time\)$/);
  // The fee mismatch was written off above: opened and resolved, each on both clocks.
  const iso = String.raw`(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)`;
  const lagos = String.raw`(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)`;
  const fee = new RegExp(`^(?:[^,]*,){6}${iso},\\d+,${iso},.*,${lagos},${lagos}$`).exec(
    records.find((r) => r.includes(",fee_mismatch,")) ?? "",
  );
  const inLagos = (at: string | undefined) => new Date(Date.parse(at ?? "") + 3_600_000).toISOString().replace("T", " ").slice(0, 19);
  expect(fee?.slice(3)).toEqual([inLagos(fee?.[1]), inLagos(fee?.[2])]);
});
