// The Sessions page: each signed-in browser with its device and times; "sign out everywhere else" ends the others.
import { expect, signIn, test } from "./fixtures";

test("a person sees both browsers they are signed in from and signs the other one out", async ({ page, merchant, browser }) => {
  const other = await browser.newContext();
  const phone = await other.newPage();
  await signIn(phone, merchant.email, merchant.password);
  await expect(phone.getByTestId("merchant-name")).toHaveText(merchant.name);

  await page.goto("/account/sessions");
  await expect(page.getByTestId("session")).toHaveCount(2);
  await expect(page.getByTestId("session").filter({ hasText: "(this session)" })).toContainText(/Chrome on (Windows|Linux|macOS)/);
  // The address as the person knows it: 127.0.0.1, never the IPv4-mapped "::ffff:127.0.0.1" a dual-stack listener sees.
  await expect(page.getByTestId("session").filter({ hasText: "(this session)" })).toContainText("127.0.0.1");
  await expect(page.getByTestId("session").first()).not.toContainText("::ffff:");
  await page.getByRole("button", { name: "Sign out everywhere else (1)" }).click();
  await expect(page.getByRole("status")).toHaveText("Signed out of 1 other session(s).");
  await expect(page.getByTestId("session")).toHaveCount(1);

  await expect.poll(async () => (await phone.goto("/payments"), phone.url()), { timeout: 10_000 }).toMatch(/\/signin/);
  await other.close();
});
