// Requests an attacker would send, against the production build in real Chromium: each must fail harmlessly.
import { createServer, type Server } from "node:http";
import { expect, test, trpcMutation } from "./fixtures";

test("an undecodable /pay or /checkout path is the friendly 404 page, not a bare 500", async ({ page }) => {
  const pages: [string, string][] = [
    ["/pay/%ff", "This payment link is not available"],
    ["/checkout/%ff", "Checkout not found"],
    ["/pay/%c0%af", "This payment link is not available"],
  ];
  for (const [path, heading] of pages) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByText(heading)).toBeVisible();
  }
});

/** Something listening where Next would forward to when it does not know its own port (127.0.0.1:3000). */
async function decoy(): Promise<{ hits: string[]; close: () => Promise<void> } | null> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end("decoy");
  });
  const bound = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(3000, "127.0.0.1", () => resolve(true));
  });
  return bound ? { hits, close: () => new Promise((r) => server.close(() => r())) } : null;
}

test("a server action posted to the wrong page is never forwarded to another port", async ({ browser }) => {
  const customer = await (await browser.newContext()).newPage();
  await customer.goto("/forgot-password");
  // The reset form's own server action call, as the browser sends it: its id and body.
  const sent = customer.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined);
  await customer.getByLabel("E-mail").fill("ada@example.com");
  await customer.getByRole("button", { name: "Mail me a reset link" }).click();
  const action = await sent;
  const listener = await decoy();
  try {
    const res = await customer.request.post(new URL("/docs", customer.url()).toString(), {
      headers: {
        "next-action": action.headers()["next-action"] ?? "",
        "content-type": action.headers()["content-type"] ?? "text/plain;charset=UTF-8",
        accept: "text/x-component",
      },
      data: action.postData() ?? "",
    });
    expect(res.status()).toBeLessThan(500);
    if (listener) expect(listener.hits).toEqual([]);
  } finally {
    await listener?.close();
  }
});

test("the done page says only what Owo's record says about that payment of that link", async ({ page, merchant, browser }) => {
  void merchant;
  // No such link, and no such payment on a real link: nothing is claimed, whatever the query string says.
  const spoof = "?status=SUCCESSFUL&paymentReference=anything";
  const none = await page.goto(`/pay/no-such-link/done${spoof}`);
  expect(none?.status()).toBe(404);
  await expect(page.getByText("Payment received")).toHaveCount(0);
  const link = await trpcMutation<{ id: string; url: string }>(page, "links.create", {
    title: "Spoof check",
    amount: "1000",
    channels: ["TRANSFER"],
  });
  expect((await page.goto(`${link.url}/done${spoof}`))?.status()).toBe(404);
  await expect(page.getByText("Payment received")).toHaveCount(0);

  // A real, unpaid payment of this link: "not finished", even when the query string claims success.
  const customer = await (await browser.newContext()).newPage();
  await customer.goto(link.url);
  await customer.getByLabel("Full name").fill("Ada Obi");
  await customer.getByLabel("E-mail").fill("ada@example.com");
  await customer.getByLabel("Phone number").fill("08012345678");
  await customer.getByRole("button", { name: /^Pay/ }).click();
  await expect(customer).toHaveURL(/\/checkout\//);
  await page.goto(`/links/${link.id}`);
  const reference = (await page.getByRole("cell", { name: /^lnk-/ }).textContent()) ?? "";
  await customer.goto(`${link.url}/done?status=SUCCESSFUL&paymentReference=${reference}`);
  await expect(customer.getByRole("heading", { name: "Payment not finished yet" })).toBeVisible();
  await expect(customer.getByText("Payment received")).toHaveCount(0);
  // Another link's payment reference is not this link's payment.
  const other = await trpcMutation<{ url: string }>(page, "links.create", { title: "Other link", amount: "1000", channels: ["TRANSFER"] });
  expect((await customer.goto(`${other.url}/done?paymentReference=${reference}`))?.status()).toBe(404);
});
