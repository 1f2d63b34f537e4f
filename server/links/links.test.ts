// Payment links over real HTTP: created through tRPC as a signed-in owner, paid by customers through payByLink.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { trpcFailure } from "../testing/initiation";
import { userClient } from "../testing/sessions";
import { payByLink, payPage, linkPaymentOutcome } from "./pay";
import { ApiError } from "../api-error";
import { checkoutStatus } from "../payments/checkout";

let owo: Owo;
let m: TestMerchant;
let owner: Awaited<ReturnType<typeof userClient>>;
let token: string;
const customer = { fullName: "Ada Obi", email: "ada@example.com", mobileNumber: "0801 234 5678" };

before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Cake House");
  owner = await userClient(owo, m.userId);
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

const pay = async (slug: string, form: Record<string, unknown>, now?: number) => payByLink(slug, form, now);
const page = async (slug: string, now?: number) => payPage(slug, now);

async function simulatePay(paymentReference: string) {
  const res = await call(owo, "POST", `/api/v2/sandbox/payments/${paymentReference}/simulate`, { token, body: { outcome: "pay" } });
  assert.equal(res.status, 200, res.text);
}

async function apiError(pending: Promise<unknown>): Promise<{ code: string; errors: { field: string }[]; message: string }> {
  try {
    await pending;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected the call to be refused");
}

test("a fixed-amount link is listed with its share URL and paid through the initiation service as source link", async () => {
  const link = await owner.links.create.mutate({
    title: "Birthday cake",
    description: "Chocolate, 8 inch",
    amount: "15000",
    channels: ["TRANSFER", "USSD"],
  });
  assert.equal(link.url, `${owo.url}/pay/${link.slug}`);
  assert.deepEqual(link.channels, ["USSD", "TRANSFER"]);
  assert.equal(link.redirectUrl, `${owo.url}/pay/${link.slug}/done`, "no merchant default: Owo's own done page");
  assert.match(link.qrSvg, /^<svg/, "the new link's QR code comes with it");

  const shown = await page(link.slug);
  assert.equal(shown.merchantName, "Cake House");
  assert.equal(shown.amount, "15000.00");
  assert.ok(
    shown.banks.some((b) => b.bankCode === "058"),
    "banks with USSD are offered",
  );

  const paid = await pay(link.slug, { ...customer, amount: "1.00", paymentType: "TRANSFER" });
  assert.match(paid.paymentReference, new RegExp(`^lnk-${link.slug}-[a-z0-9]{6}$`));
  assert.equal(paid.checkoutUrl, `${owo.url}/checkout/${paid.linkingReference}`);

  const verify = await call(owo, "GET", `/api/v3/payments/query/${paid.paymentReference}`, { token });
  assert.equal(verify.json.data.payments.amount, "15000.00", "the link's amount, not what the form sent");
  assert.equal(verify.json.data.payments.paymentType, "TRANSFER");
  assert.equal(verify.json.data.customers.customerMobile, "08012345678");

  const fromLinks = await owner.payments.list.query({ source: "link" });
  assert.deepEqual(
    fromLinks.items.map((p) => p.paymentReference),
    [paid.paymentReference],
    "listed as a payment from a link",
  );

  await simulatePay(paid.paymentReference);
  const listed = (await owner.links.list.query()).find((l) => l.id === link.id);
  assert.equal(listed?.successfulCount, 1);
  assert.equal(listed?.collected, "15000.00");
  const detail = await owner.links.byId.query({ id: link.id });
  assert.match(detail.qrSvg, /^<svg/);
  assert.equal(detail.payments[0]?.status, "SUCCESSFUL");

  // The checkout says what is paid for; the done page has the receipt's facts, from Owo's own record.
  assert.deepEqual((await checkoutStatus(paid.linkingReference)).link, { title: "Birthday cake", description: "Chocolate, 8 inch" });
  const done = await linkPaymentOutcome(link.slug, paid.paymentReference);
  assert.equal(done?.merchantName, "Cake House");
  assert.equal(done?.amountPaid, "15000.00");
  assert.ok(Date.parse(done?.paidAt ?? "") > 0, "paid at a time");
});

test("a single-use link takes one attempt at a time and closes after its first successful payment", async () => {
  const link = await owner.links.create.mutate({ title: "Invoice 42", amount: "2500", channels: ["USSD"], singleUse: true });
  const first = await pay(link.slug, { ...customer, paymentType: "USSD", bankCode: "058" });

  const busy = await apiError(pay(link.slug, { ...customer, paymentType: "USSD", bankCode: "044" }));
  assert.equal(busy.code, "S3");
  assert.match(busy.message, /in progress/);
  assert.equal((await page(link.slug)).state, "busy");

  // Once the first attempt's dial code has expired, the link takes a new attempt.
  const later = Date.now() + 11 * 60_000;
  const second = await pay(link.slug, { ...customer, paymentType: "USSD", bankCode: "044" }, later);
  assert.notEqual(second.paymentReference, first.paymentReference);

  await simulatePay(second.paymentReference);
  const used = await apiError(pay(link.slug, { ...customer, paymentType: "USSD", bankCode: "044" }, later + 1000));
  assert.equal(used.code, "S3");
  assert.match(used.message, /already been paid/);
  assert.equal((await page(link.slug, later + 1000)).state, "used");
  assert.equal((await owner.links.list.query()).find((l) => l.id === link.id)?.state, "used");
});

test("a reusable link with a customer-entered amount keeps to its range and its channels", async () => {
  const link = await owner.links.create.mutate({ title: "Donations", minAmount: "500", maxAmount: "50000", channels: ["TRANSFER"] });
  const low = await apiError(pay(link.slug, { ...customer, amount: "200", paymentType: "TRANSFER" }));
  assert.equal(low.code, "S2");
  assert.deepEqual(
    low.errors.map((e) => e.field),
    ["amount"],
  );
  const several = await apiError(
    pay(link.slug, { fullName: "", email: "nope", mobileNumber: "1", amount: "200", paymentType: "USSD", bankCode: "058" }),
  );
  assert.equal(several.code, "S5");
  assert.deepEqual(several.errors.map((e) => e.field).sort(), ["amount", "email", "fullName", "mobileNumber", "paymentType"]);
  const a = await pay(link.slug, { ...customer, amount: "750.50", paymentType: "TRANSFER" });
  const b = await pay(link.slug, { ...customer, amount: "1000", paymentType: "TRANSFER" });
  assert.notEqual(a.linkingReference, b.linkingReference, "reusable: every customer gets a payment");
});

test("bad link input names the field; a fixed amount must suit every chosen channel", async () => {
  const failure = await trpcFailure(
    owner.links.create.mutate({ title: "Too big for USSD", amount: "2000000", channels: ["USSD", "TRANSFER"] }),
  );
  assert.equal(failure.code, "BAD_REQUEST");
  assert.deepEqual(
    failure.errors.map((e) => e.field),
    ["amount"],
  );
  const url = await trpcFailure(owner.links.create.mutate({ title: "x", channels: ["USSD"], callbackUrl: "not a url" }));
  assert.deepEqual(
    url.errors.map((e) => e.field),
    ["callbackUrl"],
  );
});

test("deactivated links are gone for customers and come back when reactivated; other merchants never see them", async () => {
  const link = await owner.links.create.mutate({ title: "Old menu", amount: "1000", channels: ["TRANSFER"] });
  await owner.links.setActive.mutate({ id: link.id, active: false });
  assert.equal((await apiError(page(link.slug))).code, "S404");
  assert.equal((await apiError(pay(link.slug, { ...customer, paymentType: "TRANSFER" }))).code, "S404");
  assert.equal((await apiError(page("no-such-link"))).code, "S404");
  await owner.links.setActive.mutate({ id: link.id, active: true });
  assert.equal((await page(link.slug)).state, "accepting");

  const other = await createTestMerchant();
  const stranger = await userClient(owo, other.userId);
  assert.equal((await trpcFailure(stranger.links.byId.query({ id: link.id }))).code, "NOT_FOUND");
  assert.equal((await trpcFailure(stranger.links.setActive.mutate({ id: link.id, active: false }))).code, "NOT_FOUND");
  assert.ok(!(await stranger.links.list.query()).some((l) => l.id === link.id));
});

test("new links take the merchant's default URLs; a link's own URLs win", async () => {
  await owner.links.setDefaults.mutate({
    defaultCallbackUrl: "https://cakes.example.ng/owo",
    defaultRedirectUrl: "https://cakes.example.ng/thanks",
  });
  assert.deepEqual(await owner.links.defaults.query(), {
    defaultCallbackUrl: "https://cakes.example.ng/owo",
    defaultRedirectUrl: "https://cakes.example.ng/thanks",
  });
  const byDefault = await owner.links.create.mutate({ title: "Defaults", amount: "1000", channels: ["TRANSFER"] });
  assert.equal(byDefault.callbackUrl, "https://cakes.example.ng/owo");
  assert.equal(byDefault.redirectUrl, "https://cakes.example.ng/thanks");
  const own = await owner.links.create.mutate({
    title: "Own",
    amount: "1000",
    channels: ["TRANSFER"],
    redirectUrl: "https://other.example.ng/done",
  });
  assert.equal(own.redirectUrl, "https://other.example.ng/done");
  await owner.links.setDefaults.mutate({ defaultCallbackUrl: "", defaultRedirectUrl: "" });
  const cleared = await owner.links.create.mutate({ title: "Cleared", amount: "1000", channels: ["TRANSFER"] });
  assert.equal(cleared.callbackUrl, `${owo.url}/pay/${cleared.slug}/callback`);
});
