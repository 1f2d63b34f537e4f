// The developers page: keys and a working curl sample, rolling with a confirmation, endpoints, the signing secret, link defaults.
import { expect, test } from "./fixtures";

test("keys, curl sample, roll with grace, endpoints, signing secret and link defaults", async ({ page, merchant }) => {
  page.on("dialog", (d) => void d.accept());
  await page.goto("/developers");
  await expect(page.getByTestId("merchant-name")).toHaveText(merchant.name);
  await expect(page.getByText("Live mode starts once a bank-side provider is connected.")).toBeVisible();
  const publicKey = (await page.getByTestId("public-key").first().textContent()) ?? "";
  expect(publicKey).toMatch(/^pk_test_/);
  await expect(page.getByTestId("curl-exchange")).toContainText(`YOUR_SECRET_KEY.${publicKey}`);

  await page.getByRole("button", { name: "Roll secret key" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll the secret key?" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("The old one stops working").selectOption("3600");
  await dialog.getByRole("button", { name: "Roll now" }).click();
  const secret = (await page.getByTestId("new-secret").textContent()) ?? "";
  expect(secret).toMatch(/^sk_test_[0-9a-f]{40}$/);
  const exchanged = await page.request.post("/api/v2/encrypt/keys", { data: { key: `${secret}.${publicKey}` } });
  expect(exchanged.status()).toBe(200);
  await expect(page.getByText(/Previous secret …\w{4} still works until/)).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/developers.png", fullPage: true });

  await page.reload();
  await expect(page.getByText(`sk_test_••••••••${secret.slice(-4)}`)).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  await page.getByLabel("Endpoint URL").fill("https://example.com/owo-hooks");
  await page.getByLabel("Description (optional)").fill("Orders");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const endpoint = page.getByTestId("endpoint").filter({ hasText: "https://example.com/owo-hooks" });
  await expect(endpoint).toContainText("Enabled");
  await endpoint.getByRole("button", { name: "Disable" }).click();
  await expect(endpoint).toContainText("Disabled");
  await endpoint.getByRole("button", { name: "Recent deliveries" }).click();
  await expect(endpoint.getByText("Nothing sent to this endpoint yet.")).toBeVisible();
  await endpoint.getByRole("button", { name: "Delete" }).click();
  await expect(endpoint).toHaveCount(0);

  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  await expect(page.getByTestId("signing-secret")).toHaveText(/^whsec_/);

  await page.getByLabel("Default redirect URL").fill("https://shop.example.ng/thanks");
  await page.getByRole("button", { name: "Save defaults" }).click();
  await expect(page.getByText("Saved. New links use these; existing links keep theirs.")).toBeVisible();
  await page.goto("/links");
  await page.getByText("Callback and redirect URLs").click();
  await expect(page.getByLabel("Redirect URL")).toHaveAttribute("placeholder", "https://shop.example.ng/thanks");
});
