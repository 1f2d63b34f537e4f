// What a customer on 3G downloads to pay: the hosted checkout's JavaScript, summed over every script the page
// actually loads, each gzipped as a server would send it. Issue #27 asks for at most 100 KB. The checkout is served by
// Owo's front without Next's client runtime (server/checkout-page): one small script (~4 KB) where React DOM and the
// App Router runtime were ~130 KB of the 146 KB measured before.
import { gzipSync } from "node:zlib";
import { expect, paymentInput, test, trpcMutation } from "./fixtures";

const TARGET_BYTES = 100 * 1024;

test("the hosted checkout's JavaScript, gzipped, is at most 100 KB", async ({ page, browser, merchant }) => {
  expect(merchant.name).not.toBe("");
  const issued = await trpcMutation(page, "initiatePayment", paymentInput(page, { paymentType: "TRANSFER", amount: "2500" }));
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const customer = await phone.newPage();
  const scripts: Promise<{ url: string; gzipped: number }>[] = [];
  customer.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    scripts.push(res.body().then((body) => ({ url: new URL(res.url()).pathname, gzipped: gzipSync(body).length })));
  });
  await customer.goto(issued.checkoutUrl ?? "");
  await expect(customer.getByTestId("checkout-account-number")).toHaveText(issued.accountNumber ?? "");
  await customer.waitForLoadState("networkidle");
  const sizes = await Promise.all(scripts);
  const total = sizes.reduce((sum, s) => sum + s.gzipped, 0);
  const listing = sizes
    .sort((a, b) => b.gzipped - a.gzipped)
    .map((s) => `${(s.gzipped / 1024).toFixed(1)} KB ${s.url}`)
    .join("\n");
  console.log(`checkout JavaScript: ${(total / 1024).toFixed(1)} KB gzipped in ${sizes.length} scripts\n${listing}`);
  expect(sizes.length).toBeGreaterThan(0);
  expect(total, listing).toBeLessThanOrEqual(TARGET_BYTES);
  await phone.close();
});
