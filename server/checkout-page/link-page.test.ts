// A payment link's customer pages over real HTTP, served by the front without Next: the form drawn on the server,
// posted as a plain HTML form (303 to the checkout, or the page again naming the fields at fault), refused from
// another site, and the done page telling only what Owo's record says.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { userClient } from "../testing/sessions";

let owo: Owo;
let owner: Awaited<ReturnType<typeof userClient>>;
let token: string;
before(async () => {
  owo = await startOwo();
  const m = await createTestMerchant("Mama Put <Ikeja> & Sons");
  owner = await userClient(owo, m.userId);
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

const customer = { fullName: "Ada Obi", email: "ada@example.com", mobileNumber: "0801 234 5678", paymentType: "TRANSFER" };

/** The form as a browser posts it from the link's own page. */
function post(path: string, form: Record<string, string>, origin: string | null = owo.url) {
  return fetch(owo.url + path, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(origin === null ? {} : { origin }) },
    body: new URLSearchParams(form).toString(),
  });
}

test("the link's page is drawn on the server: title, amount, the merchant's name escaped, one small script, strict CSP", async () => {
  const link = await owner.links.create.mutate({ title: "Party <tray>", amount: "25000", channels: ["TRANSFER", "USSD"] });
  const res = await fetch(link.url);
  assert.equal(res.status, 200);
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  const page = await res.text();
  assert.match(page, /<title>Party &lt;tray&gt; · Mama Put &lt;Ikeja&gt; &amp; Sons · Owo<\/title>/);
  assert.match(page, /data-testid="link-amount">₦25,000\.00</);
  assert.ok(!page.includes("<Ikeja>") && !page.includes("<tray>"), "names are text, never markup");
  assert.ok(!page.includes("/_next/"), "no Next runtime on the customer's page");
  assert.match(page, new RegExp(`<form method="post" action="/pay/${link.slug}"`));
  assert.match(page, /<option value="058"/, "USSD's banks to choose from");
  const scripts = [...page.matchAll(/<script([^>]*)>/g)].map((s) => s[1] ?? "");
  assert.equal(scripts.length, 1);
  assert.match(scripts[0] ?? "", /src="\/_owo\/pay-[\w-]+\.js"/);

  for (const path of ["/pay/no-such-link", "/pay/%ff", `/pay/${"x".repeat(80)}`]) {
    const gone = await fetch(owo.url + path);
    assert.equal(gone.status, 404, path);
    assert.match(await gone.text(), /This payment link is not available/);
  }
});

test("a form with mistakes comes back naming each field, keeping what was typed; a good one answers 303 to the checkout", async () => {
  const link = await owner.links.create.mutate({ title: "Any amount", minAmount: "100", maxAmount: "5000", channels: ["TRANSFER"] });
  const wrong = await post(`/pay/${link.slug}`, { amount: "9000", fullName: "", email: "ada@example.com", mobileNumber: "12" });
  assert.equal(wrong.status, 400);
  const page = await wrong.text();
  assert.match(page, /Amount must be from 100\.00 to 5000\.00 for this link/);
  assert.match(page, /Full name must be the customer&#39;s name, 1 to 100 characters/);
  assert.match(page, /Phone number must be 7 to 15 digits/);
  assert.match(page, /name="email"\s+type="email"\s+required\s+value="ada@example\.com"/, "what was right stays filled in");
  assert.match(page, /name="fullName"[^>]*aria-invalid="true"\s+aria-describedby="fullName-error"/);

  // A customer who skipped the bank is told so in their words.
  const ussd = await owner.links.create.mutate({ title: "Dial to pay", amount: "2500", channels: ["USSD"] });
  const noBank = await (await post(`/pay/${ussd.slug}`, { ...customer, paymentType: "USSD" })).text();
  assert.match(noBank, /Your bank is needed for USSD: choose the bank you will dial from/);
  assert.doesNotMatch(noBank, /\/api\/|bank code/, "no developer's wording on a customer's page");

  const paid = await post(`/pay/${link.slug}`, { ...customer, amount: "2500" });
  assert.equal(paid.status, 303);
  const checkout = paid.headers.get("location") ?? "";
  assert.match(checkout, /^\/checkout\/OWO\d{17}$/);
  assert.match(await (await fetch(owo.url + checkout)).text(), /data-testid="checkout-amount">₦2,500\.00</);
});

test("a form posted from another site starts no payment; the link's own page does", async () => {
  const link = await owner.links.create.mutate({ title: "One cake", amount: "5000", channels: ["TRANSFER"], singleUse: true });
  for (const origin of ["https://evil.example", "null"]) {
    const refused = await post(`/pay/${link.slug}`, customer, origin);
    assert.equal(refused.status, 403, origin);
    assert.match(await refused.text(), /Cross-site request refused: send the form from this payment page/);
  }
  const crossSite = await fetch(`${owo.url}/pay/${link.slug}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
    body: new URLSearchParams(customer).toString(),
  });
  assert.equal(crossSite.status, 403);
  // The single-use link is still free: nothing was started by the refused posts.
  assert.doesNotMatch(await (await fetch(link.url)).text(), /Someone is paying this link right now/);

  assert.equal((await post(`/pay/${link.slug}`, customer)).status, 303);
  const busy = await (await fetch(link.url)).text();
  assert.match(busy, /Someone is paying this link right now/);
  assert.doesNotMatch(busy, /<form/);
  const again = await post(`/pay/${link.slug}`, customer);
  assert.equal(again.status, 403);
  assert.match(await again.text(), /Someone is paying this link right now/);
});

test("the done page says what Owo's record says of that payment of that link, whatever the query string claims", async () => {
  const link = await owner.links.create.mutate({ title: "Done check", amount: "1000", channels: ["TRANSFER"] });
  const spoof = "status=SUCCESSFUL&paymentReference=anything";
  assert.equal((await fetch(`${link.url}/done?${spoof}`)).status, 404);
  assert.equal((await fetch(`${owo.url}/pay/no-such-link/done?${spoof}`)).status, 404);

  assert.equal((await post(`/pay/${link.slug}`, customer)).status, 303);
  const [payment] = (await owner.payments.list.query({ source: "link" })).items.filter((p) =>
    p.paymentReference.startsWith(`lnk-${link.slug}-`),
  );
  const reference = payment?.paymentReference ?? "";
  const waiting = await (await fetch(`${link.url}/done?status=SUCCESSFUL&paymentReference=${reference}`)).text();
  assert.match(waiting, /Payment not finished yet/);
  assert.match(waiting, new RegExp(`href="/pay/${link.slug}">Back to the payment page`));
  assert.equal((await fetch(`${link.url}/done?paymentReference=${reference}&paymentReference=${reference}`)).status, 404);

  const res = await call(owo, "POST", `/api/v2/sandbox/payments/${reference}/simulate`, { token, body: { outcome: "pay" } });
  assert.equal(res.status, 200, res.text);
  const done = await (await fetch(`${link.url}/done?paymentReference=${reference}`)).text();
  assert.match(done, /<h1>Payment received<\/h1>/);
  assert.match(done, /<dt>Paid<\/dt>\s*<dd>₦1,000\.00<\/dd>/);
  assert.ok(done.includes(`<dd class="mono">${reference}</dd>`));
});
