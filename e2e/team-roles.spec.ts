// An owner invites a viewer; the viewer signs up through the link, reads payments, and the server refuses their changes.
import { expect, test, trpcMutation, unique } from "./fixtures";

test("invite a viewer, who signs up through the link, sees payments and is refused FORBIDDEN on a direct tRPC call", async ({
  page,
  merchant,
  browser,
}) => {
  await page.goto("/team");
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByRole("button", { name: "Create invite link" }).click();
  const inviteUrl = await page.getByLabel("Invite link").inputValue();
  expect(inviteUrl).toMatch(/\/signup\?invite=inv_/);

  const other = await browser.newContext();
  const viewer = await other.newPage();
  const email = `viewer${unique()}@example.com`;
  await viewer.goto(inviteUrl);
  await expect(viewer.getByRole("heading", { name: `Join ${merchant.name}` })).toBeVisible();
  await viewer.getByLabel("Your name").fill("Vera Viewer");
  await viewer.getByLabel("E-mail").fill(email);
  await viewer.getByLabel("Password").fill("a good long password");
  await viewer.getByRole("button", { name: `Join ${merchant.name}` }).click();
  await expect(viewer).toHaveURL(/\/dashboard$/);
  await expect(viewer.getByTestId("merchant-name")).toHaveText(merchant.name);
  await expect(viewer.getByText(`${email} · viewer`)).toBeVisible();

  await viewer.goto("/payments");
  await expect(viewer.getByRole("heading", { name: "Payments", exact: true })).toBeVisible();
  await viewer.goto("/links");
  await expect(viewer.getByRole("heading", { name: "Payment links" })).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Create link" })).toHaveCount(0);

  // Hiding the button is not the protection: the procedure itself refuses.
  const refused = await viewer.evaluate(async () => {
    const res = await fetch("/api/trpc/links.create", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ json: { title: "Sneaky", amount: "1000", channels: ["TRANSFER"] } }),
    });
    return { status: res.status, body: (await res.json()) as { error: { json: { data: { code: string; apiCode: string } } } } };
  });
  expect(refused.status).toBe(403);
  expect(refused.body.error.json.data.code).toBe("FORBIDDEN");
  expect(refused.body.error.json.data.apiCode).toBe("S3");

  // The invite link is spent.
  const again = await browser.newContext();
  const stranger = await again.newPage();
  await stranger.goto(inviteUrl);
  await expect(stranger.getByRole("heading", { name: "This invite link is not valid" })).toBeVisible();

  await page.reload();
  await expect(page.getByTestId("member-row").filter({ hasText: email })).toBeVisible();
  await expect(page.getByTestId("audit-row").filter({ hasText: "Joined the team through an invite" })).toBeVisible();
  await expect(page.getByTestId("audit-row").filter({ hasText: "Created an invite link" })).toBeVisible();
  // Every entry is a sentence: no procedure names (payments.refund), no JSON.
  await trpcMutation(page, "links.create", { title: "Audit cake", amount: "1500", channels: ["USSD"] });
  await page.reload();
  await expect(page.getByTestId("audit-row").filter({ hasText: "Created the payment link “Audit cake” for ₦1,500.00." })).toBeVisible();
  for (const sentence of await page.getByTestId("audit-sentence").allTextContents()) {
    expect(sentence).toMatch(/^[A-Z].*\.$/);
    expect(sentence).not.toMatch(/\b[a-z]+\.[a-z][A-Za-z]+\b|[{}]/);
  }
  await page.screenshot({ path: "e2e/screenshots/team.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/team-audit-390.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Removed, the viewer is signed out of this merchant at once.
  page.on("dialog", (d) => void d.accept());
  await page.getByTestId("member-row").filter({ hasText: email }).getByRole("button", { name: "Remove" }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: email })).toHaveCount(0);
  await viewer.goto("/links");
  await expect(viewer).toHaveURL(/\/signin/);
  await other.close();
  await again.close();
});
