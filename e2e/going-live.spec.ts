// Going live as a new merchant meets it (#26): the merchant id the CLI asks for is on the Developers page and in
// `merchant list`; a provider's credentials are tried when they are saved and a wrong key is told what failed, with
// nothing saved and no live keys offered; a callback to this machine says that OWO_ALLOW_PRIVATE_CALLBACKS exists.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { startAnotherOwo } from "./another-owo";
import { expect, signUp, test, trpcMutation, paymentInput } from "./fixtures";
import { paystackDoubleFor } from "./paystack-double";

const SECRET_KEY = "sk_test_e2e_going_live";
const double = paystackDoubleFor(SECRET_KEY);

test("the merchant id is on the Developers page, as `merchant list` prints it", async ({ page, merchant }) => {
  await page.goto("/developers");
  const merchantId = (await page.getByTestId("merchant-id").textContent()) ?? "";
  expect(merchantId).toMatch(/^mch_/);
  const listed = spawnSync(process.execPath, ["--import", "tsx", "server/cli/owo.ts", "merchant", "list", "--json"], {
    env: { ...process.env, DATABASE_URL: join(process.env.OWO_E2E_DIR ?? "", "owo.db") },
    encoding: "utf8",
  });
  expect(JSON.parse(listed.stdout.trim())).toContainEqual({ merchantId, name: merchant.name, ownerEmail: merchant.email });
  await page.getByTestId("merchant-id").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "e2e/screenshots/merchant-id-1440.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("merchant-id").scrollIntoViewIfNeeded();
  await expect(page.getByTestId("merchant-id")).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: "e2e/screenshots/merchant-id-390.png" });
});

test("a wrong provider key is refused on connect, saying what the provider said; nothing is saved and no live keys are offered", async ({
  page,
}) => {
  const doubleUrl = double.url();
  await signUp(page);
  await page.goto("/providers");
  const form = page.getByTestId("connect-provider");
  await form.getByLabel(/Secret key/).fill("sk_test_a_key_paystack_never_issued");
  await form.getByLabel(/Base URL/).fill(doubleUrl);
  await form.getByRole("button", { name: "Connect" }).click();
  await expect(form.locator(".field-error")).toHaveText(
    /^paystack refused the credentials \(GET \/balance: .*Invalid key.*\); nothing was saved$/,
  );
  await page.screenshot({ path: "e2e/screenshots/provider-refused-1440.png", fullPage: true });
  await page.reload();
  await expect(page.getByTestId("no-providers")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create live keys" })).toHaveCount(0);

  const form2 = page.getByTestId("connect-provider");
  await form2.getByLabel(/Secret key/).fill(SECRET_KEY);
  await form2.getByLabel(/Base URL/).fill("http://127.0.0.1:9");
  await form2.getByRole("button", { name: "Connect" }).click();
  await expect(form2.getByRole("alert")).toContainText("Could not reach paystack at http://127.0.0.1:9 to check the credentials");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/provider-unreachable-390.png", fullPage: true });

  await form2.getByLabel(/Base URL/).fill(doubleUrl);
  await form2.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByTestId("provider-paystack")).toContainText("Available");
  await expect(page.getByRole("button", { name: "Create live keys" })).toBeVisible();
});

test("a callback to this machine, refused, tells the payment page's reader about OWO_ALLOW_PRIVATE_CALLBACKS", async ({ browser }) => {
  // The e2e server allows private callbacks; this one runs as a fresh demo does, without.
  const owo = await startAnotherOwo();
  try {
    const base = owo.url;
    const port = new URL(base).port;
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    await signUp(page);
    const input = paymentInput(page, { paymentType: "TRANSFER" });
    await trpcMutation(page, "initiatePayment", input);
    await trpcMutation(page, "sandbox.simulate", { paymentReference: input.paymentReference, outcome: "pay" });
    await page.goto(`/payments/${String(input.paymentReference)}`);
    const hint = page.getByTestId("private-callback-hint");
    await expect(hint).toContainText("OWO_ALLOW_PRIVATE_CALLBACKS=1", { timeout: 20_000 });
    await expect(hint).toContainText(`Owo does not call 127.0.0.1:${port}`);
    await hint.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/private-callback-hint-1440.png" });
    await page.setViewportSize({ width: 390, height: 844 });
    await hint.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/private-callback-hint-390.png" });
    await context.close();
  } finally {
    owo.stop();
  }
});
