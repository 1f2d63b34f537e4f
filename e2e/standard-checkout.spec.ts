// Standard checkout on a phone: the merchant's redirectLink opens Owo's hosted checkout, the customer chooses USSD and
// their bank, dials the code shown, the sandbox bank pays, and the customer lands back on the shop's redirectUrl.
import { expect, test, trpcMutation, unique } from "./fixtures";

type StandardCheckout = { redirectLink: string; paymentStatus: string; paymentReference: string; linkingReference: string };

test("standard checkout on a phone: USSD with a bank, the dial code, the sandbox pays, back to redirectUrl", async ({
  page,
  browser,
  merchant,
}) => {
  const origin = new URL(page.url()).origin;
  // The body as SeerBit's clients send it: amount and reference as numbers, no name or phone.
  const created = await trpcMutation<StandardCheckout>(page, "standardCheckout", {
    amount: 2500,
    currency: "NGN",
    country: "NG",
    paymentReference: Number(unique()),
    email: "ada@example.com",
    callbackUrl: `${origin}/api/health`,
    redirectUrl: `${origin}/signin?from=shop`,
    productId: null,
    productDescription: null,
  });
  expect(created.paymentStatus).toBe("08");
  expect(created.redirectLink).toBe(`${origin}/checkout/${created.linkingReference}`);

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const customer = await phone.newPage();
  await customer.goto(created.redirectLink);
  await expect(customer.getByText(merchant.name, { exact: true })).toBeVisible();
  await expect(customer.getByTestId("checkout-amount")).toHaveText("₦2,500.00");
  await expect(customer.getByRole("heading", { name: "How would you like to pay?" })).toBeVisible();
  await customer.screenshot({ path: "e2e/screenshots/standard-checkout-choose.png", fullPage: true });

  await customer.getByLabel(/^USSD/).selectOption({ label: "Access Bank" });
  await customer.getByRole("button", { name: "Pay with USSD" }).click();
  const dial = customer.getByTestId("checkout-dial-code");
  await expect(dial).toHaveText(/^\*901\*000\*\d{8}#$/);
  await expect(customer.getByText("Access Bank")).toBeVisible();
  await expect(customer.getByRole("link", { name: "Dial now" })).toHaveAttribute("href", /^tel:\*901\*000\*\d{8}%23$/);
  await customer.screenshot({ path: "e2e/screenshots/standard-checkout-ussd.png", fullPage: true });

  // The same payment now has its channel; the sandbox bank debits the customer.
  await trpcMutation(page, "sandbox.simulate", { paymentReference: created.paymentReference, outcome: "pay" });
  await expect(customer.getByTestId("receipt")).toContainText("Payment received", { timeout: 10_000 });
  await expect(customer.getByTestId("receipt")).toContainText(created.paymentReference);

  await customer.waitForURL(/\/signin\?/, { timeout: 15_000 });
  const back = new URL(customer.url());
  expect(back.searchParams.get("from")).toBe("shop");
  expect(back.searchParams.get("paymentReference")).toBe(created.paymentReference);
  expect(back.searchParams.get("status")).toBe("SUCCESSFUL");
  await phone.close();
});
