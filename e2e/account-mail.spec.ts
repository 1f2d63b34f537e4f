// Mail with no SMTP server: the sign-up's verification mail read in "Mail sent by this Owo"; a password reset whose link works once.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { createAccount, expect, signIn, test, unique } from "./fixtures";

/** The newest mail to `to`, as the operator's CLI prints it from the e2e server's database. */
function lastMailTo(to: string): { subject: string; text: string } {
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", "server/cli/owo.ts", "mail", "list", "--to", to, "--json", "--limit", "1"],
    {
      env: { ...process.env, DATABASE_URL: join(process.env.OWO_E2E_DIR ?? "", "owo.db"), LOG_LEVEL: "silent" },
      encoding: "utf8",
    },
  );
  const mails = (JSON.parse(out) as { mails: { subject: string; text: string }[] }).mails;
  if (!mails[0]) throw new Error(`no mail to ${to}`);
  return mails[0];
}

test("a new owner confirms their e-mail from the outbox page before they may invite", async ({ page }) => {
  const { email } = await createAccount(page, "Verify & Sons");
  await expect(page.getByTestId("verify-banner")).toContainText(email);
  await page.goto("/team");
  await expect(page.getByText("Confirm your e-mail address before you invite anyone")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create invite link" })).toHaveCount(0);

  await page.getByRole("link", { name: "Mail sent by this Owo" }).click();
  await expect(page.getByRole("note").filter({ hasText: "Development only" })).toContainText("no SMTP server configured");
  const mail = page.getByTestId("mail").filter({ hasText: "Welcome to Owo, Verify & Sons: confirm your e-mail" });
  await expect(mail).toContainText(`to ${email}`);
  await expect(mail).toContainText("not sent (no SMTP)");
  await mail.getByRole("link", { name: /\/verify-email\?token=/ }).click();
  await page.getByRole("button", { name: "Confirm my e-mail" }).click();
  await expect(page.getByRole("heading", { name: "E-mail confirmed" })).toBeVisible();

  await page.goto("/team");
  await expect(page.getByTestId("verify-banner")).toHaveCount(0);
  await page.getByLabel("Their e-mail").fill(`teammate${unique()}@example.com`);
  await page.getByRole("button", { name: "Create invite link" }).click();
  await expect(page.getByRole("status")).toContainText("We mailed it to");
});

test("forgotten password: the mailed link sets a new one once; used again it is refused with a clear page; a new browser's sign-in is mailed", async ({
  page,
  merchant,
  browser,
}) => {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByRole("button", { name: "Mail me a reset link" }).click();
  await expect(page.getByRole("status")).toContainText("The link works once, for 30 minutes");

  const mail = lastMailTo(merchant.email);
  expect(mail.subject).toBe("Reset your Owo password");
  const link = mail.text.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0] ?? "";
  await page.goto(link);
  await page.getByLabel("New password").fill("my brand new password");
  await page.getByLabel("The same again").fill("my brand new password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByRole("heading", { name: "Password changed" })).toBeVisible();

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This reset link was already used" })).toBeVisible();
  await page.goto("/reset-password?token=made-up");
  await expect(page.getByRole("heading", { name: "This reset link is not valid" })).toBeVisible();

  await signIn(page, merchant.email, merchant.password);
  await expect(page.locator(".form-error")).toHaveText("Wrong e-mail or password.");
  await page.getByLabel("Password").fill("my brand new password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("merchant-name")).toHaveText(merchant.name);
  expect(lastMailTo(merchant.email).subject).toBe("Owo security notice: Your Owo password was reset with a link mailed to you");

  // The same person from a browser Owo has not seen (no device cookie): a notice by mail.
  const other = await browser.newContext();
  const phone = await other.newPage();
  await signIn(phone, merchant.email, "my brand new password");
  await expect(phone.getByTestId("merchant-name")).toHaveText(merchant.name);
  await expect.poll(() => lastMailTo(merchant.email).subject).toBe("New sign-in to your Owo account");
  await other.close();
});
