// The hosted checkout over real HTTP, served by the front without Next: the page drawn on the server with the
// payment's facts, a strict CSP with no inline script, and one small script and stylesheet by hashed name.
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { initiated, newReference, transferBody, ussdBody } from "../testing/initiation";

let owo: Owo;
let m: TestMerchant;
let token: string;
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Mama Put <Ikeja> & Sons");
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

const initiate = (body: Record<string, unknown>) => initiated(owo, token, body);

test("a transfer's checkout is drawn on the server: amount, account, merchant's name escaped, strict CSP", async () => {
  const issued = await initiate(transferBody(m.publicKey, { paymentReference: newReference("page"), amount: "2500" }));
  const res = await fetch(issued.checkoutUrl);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  const page = await res.text();
  assert.match(page, /data-testid="checkout-amount">₦2,500\.00</);
  assert.match(page, new RegExp(`data-testid="checkout-account-number">${issued.accountNumber}<`));
  assert.ok(page.includes("Mama Put &lt;Ikeja&gt; &amp; Sons"));
  assert.ok(!page.includes("<Ikeja>"), "the merchant's name is text, never markup");
  assert.ok(!page.includes("/_next/"), "no Next runtime on the customer's page");
  // Every script is a file from this origin; the state travels as JSON the script reads.
  const scripts = [...page.matchAll(/<script([^>]*)>/g)].map((s) => s[1] ?? "");
  assert.deepEqual(
    scripts.map((s) => (s.includes("src=") ? "file" : s.includes('type="application/json"') ? "data" : "inline")),
    ["file", "data"],
  );

  const scriptPath = /<script src="([^"]+)"/.exec(page)?.[1] ?? "";
  const stylePath = /<link rel="stylesheet" href="([^"]+)"/.exec(page)?.[1] ?? "";
  const script = await fetch(owo.url + scriptPath);
  assert.equal(script.status, 200);
  assert.match(script.headers.get("cache-control") ?? "", /immutable/);
  const js = Buffer.from(await script.arrayBuffer());
  assert.ok(gzipSync(js).length < 10 * 1024, `the checkout's script is ${gzipSync(js).length} bytes gzipped`);
  const style = await fetch(owo.url + stylePath);
  assert.equal(style.headers.get("content-type"), "text/css; charset=utf-8");
  assert.match(await style.text(), /\.co-card\{/);
  assert.equal((await fetch(`${owo.url}/_owo/checkout-nothing.js`)).status, 404);
});

test("a USSD checkout carries its dial code and QR; an unknown or undecodable one is the friendly 404", async () => {
  const issued = await initiate(ussdBody(m.publicKey, { paymentReference: newReference("page"), bankCode: "033" }));
  const page = await (await fetch(issued.checkoutUrl)).text();
  assert.ok(page.includes(`data-testid="checkout-dial-code">${issued.ussdDailCode}<`));
  assert.match(page, /<img src="data:image\/svg\+xml/);
  for (const path of ["/checkout/OWO00000000000000000", "/checkout/%ff", `/checkout/${"9".repeat(80)}`]) {
    const missing = await fetch(owo.url + path);
    assert.equal(missing.status, 404, path);
    assert.match(await missing.text(), /Checkout not found/);
  }
});
