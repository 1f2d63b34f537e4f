// The merchant's other sales on a connected account: on the Providers page it sets the account's forwarding URL (its
// website's old webhook URL), a sale its website made at Paystack (the double) sends Paystack's signed notice to Owo,
// and the card lists the forward Owo passed on unchanged, delivered; a URL that is not http(s) is refused in words.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { paystackDoubleFor } from "./paystack-double";
import { expect, test } from "./fixtures";

const SECRET_KEY = "sk_test_e2e_forwarding_double";
const double = paystackDoubleFor(SECRET_KEY);
let site: Server | undefined;
let siteUrl = "";
const atSite: { body: string; signature: string | undefined }[] = [];

test.beforeAll(async () => {
  // The merchant's website: what its Paystack webhook URL used to receive.
  site = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const signature = req.headers["x-paystack-signature"];
      atSite.push({ body, signature: Array.isArray(signature) ? signature[0] : signature });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => site?.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/paystack/webhook`;
});
test.afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
});

test("set a provider account's forwarding URL and watch the merchant's own sale's notice forwarded, delivered", async ({
  page,
  merchant: _merchant,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/providers");
  await double.connect(page);
  const card = page.getByTestId("provider-paystack");
  const noticeUrl = (await card.getByTestId("notice-url").textContent()) ?? "";
  await fetch(`${double.url()}/_double/webhook-url`, { method: "PUT", body: JSON.stringify({ url: noticeUrl }) });
  await expect(card.getByTestId("forwards")).toHaveCount(0);
  await expect(card).toContainText("No notice forwarded yet.");

  const forwarding = card.getByTestId("forward-url-form");
  await forwarding.getByLabel(/Notices for your other paystack sales go to/).fill("ftp://shop.example.ng/hook");
  await forwarding.getByRole("button", { name: "Save forwarding URL" }).click();
  await expect(forwarding.locator(".field-error")).toContainText("must be a public http(s) URL");
  await forwarding.getByLabel(/Notices for your other paystack sales go to/).fill(siteUrl);
  await forwarding.getByRole("button", { name: "Save forwarding URL" }).click();
  await expect(forwarding.getByRole("status")).toHaveText("Saved");
  await page.reload();
  await expect(card.getByLabel(/Notices for your other paystack sales go to/)).toHaveValue(siteUrl);

  // A sale the merchant's website made on the same Paystack account, paid: Paystack's notice reaches Owo's URL.
  const reference = `web-order-${Date.now()}`;
  const charged = await fetch(`${double.url()}/charge`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET_KEY}` },
    body: JSON.stringify({ email: "walkin@example.com", amount: 1250000, reference, bank_transfer: {} }),
  });
  expect(charged.status).toBe(200);
  await fetch(`${double.url()}/_double/transactions/${reference}/pay`, { method: "POST", body: "{}" });
  await expect.poll(() => atSite.filter((r) => r.body.includes(reference)).length, { timeout: 20_000 }).toBe(1);
  expect(atSite[0]?.signature).toMatch(/^[0-9a-f]{128}$/);

  await expect
    .poll(
      async () => {
        await page.reload();
        return card.getByTestId("forward").first().textContent();
      },
      { timeout: 20_000 },
    )
    .toContain("Delivered");
  const forward = card.getByTestId("forward").first();
  await expect(forward).toContainText(reference);
  await expect(forward).toContainText("HTTP 200 · 1 attempt");
  await page.screenshot({ path: "e2e/screenshots/provider-forwarding.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/provider-forwarding-390.png", fullPage: true });
});
