// The hosted checkout's live status over real HTTP: public, only what a customer may see, follows the payment, IP-limited.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { eventually } from "../testing/eventually";
import { initiated, sampleOrder, transferBody, ussdBody } from "../testing/initiation";
import { moveClock } from "../clock";

const IP_LIMIT = 40;
let owo: Owo;
let m: TestMerchant;
let token: string;
before(async () => {
  owo = await startOwo({ OWO_USSD_TTL_SECONDS: "2", OWO_IP_RATE_LIMIT_PER_MIN: String(IP_LIMIT) });
  m = await createTestMerchant("Mama Put Kitchen");
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

/** What the customer's browser sends: no token, no cookie. */
function status(linkingReference: string) {
  const input = encodeURIComponent(JSON.stringify({ json: { linkingReference } }));
  return call(owo, "GET", `/api/trpc/checkout.status?input=${input}`);
}

const initiate = (body: Record<string, unknown>) => initiated(owo, token, body);

test("a customer follows a transfer from open account to receipt, seeing nothing private", async () => {
  const issued = await initiate(
    transferBody(m.publicKey, {
      amount: "2000",
      redirectUrl: "https://shop.example.ng/thanks?order=77",
      email: "private@example.com",
      mobileNumber: "08099998888",
    }),
  );
  const open = await status(issued.linkingReference);
  assert.equal(open.status, 200, open.text);
  const view = open.json.result.data.json;
  assert.equal(view.merchantName, "Mama Put Kitchen");
  assert.equal(view.status, "PENDING");
  assert.equal(view.amount, "2000.00");
  assert.equal(view.amountDue, "2000.00");
  assert.equal(view.expiresAt, issued.expiresAt);
  assert.deepEqual(view.issued, {
    paymentType: "TRANSFER",
    accountNumber: issued.accountNumber,
    bankName: "Owo Sandbox Bank",
    accountName: "OWO(Mama Put Kitchen)",
  });
  assert.equal(view.returnUrl, null, "no way back until the payment has ended");
  for (const secret of ["private@example.com", "08099998888", "callback", sampleOrder.fullName])
    assert.ok(!open.text.includes(secret), `checkout must not show ${secret}`);

  await call(owo, "POST", `/api/v2/sandbox/payments/${issued.paymentReference}/simulate`, {
    token,
    body: { outcome: "pay", amount: "500.00" },
  });
  const partly = (await status(issued.linkingReference)).json.result.data.json;
  assert.deepEqual(
    [partly.status, partly.amountPaid, partly.amountDue, partly.open, partly.somethingPaid, partly.late],
    ["PARTIALLY_PAID", "500.00", "1500.00", true, true, null],
  );

  await call(owo, "POST", `/api/v2/sandbox/payments/${issued.paymentReference}/simulate`, { token, body: { outcome: "pay" } });
  const done = (await status(issued.linkingReference)).json.result.data.json;
  assert.deepEqual([done.status, done.open, done.amountDue, done.late, done.paidBack], ["SUCCESSFUL", false, "0.00", null, "0.00"]);
  assert.ok(Date.parse(done.paidAt) > 0);
  const back = new URL(done.returnUrl);
  assert.equal(back.origin + back.pathname, "https://shop.example.ng/thanks");
  assert.deepEqual(Object.fromEntries(back.searchParams), { order: "77", paymentReference: issued.paymentReference, status: "SUCCESSFUL" });
});

test("money sent late is due back to the customer until refunded, then says how much came back; a refund of the rest is on the receipt", async () => {
  const issued = await initiate(transferBody(m.publicKey, { amount: "1000" }));
  const simulate = (body: Record<string, unknown>) =>
    call(owo, "POST", `/api/v2/sandbox/payments/${issued.paymentReference}/simulate`, { token, body });
  await simulate({ outcome: "pay" });
  await simulate({ outcome: "pay", amount: "400.00" }); // after it was paid: late money, the customer's
  const owed = (await status(issued.linkingReference)).json.result.data.json;
  assert.deepEqual(
    [owed.status, owed.late, owed.paidBack],
    ["SUCCESSFUL", { arrived: "400.00", refunded: "0.00", owed: "400.00" }, "0.00"],
  );

  const refund = async (amount: string, refunded: string) => {
    const res = await call(owo, "POST", `/api/v2/payments/${issued.paymentReference}/refunds`, { token, body: { amount, reason: "late" } });
    assert.equal(res.status, 200, res.text);
    await eventually(`${refunded} refunded`, async () => {
      const v = await call(owo, "GET", `/api/v3/payments/query/${issued.paymentReference}`, { token });
      return v.json.data.payments.amountRefunded === refunded;
    });
    return (await status(issued.linkingReference)).json.result.data.json;
  };
  // A refund pays the late money back first (the books' refund_due), so the customer reads what is still theirs.
  const partly = await refund("150.00", "150.00");
  assert.deepEqual([partly.late, partly.paidBack], [{ arrived: "400.00", refunded: "150.00", owed: "250.00" }, "0.00"]);
  const back = await refund("450.00", "600.00");
  assert.deepEqual([back.late, back.paidBack], [{ arrived: "400.00", refunded: "400.00", owed: "0.00" }, "200.00"]);
});

test("a dial code is shown tap-to-dial, and an overdue one reads EXPIRED with its way back", async () => {
  const issued = await initiate(ussdBody(m.publicKey, { bankCode: "057" }));
  const view = (await status(issued.linkingReference)).json.result.data.json;
  assert.equal(view.issued.dialCode, issued.ussdDailCode);
  assert.equal(view.issued.bankName, "Zenith Bank");
  assert.equal(view.issued.telLink, `tel:${issued.ussdDailCode.replace("#", "%23")}`);
  moveClock(2001); // the dial code's 2 s lifetime has passed
  const late = (await status(issued.linkingReference)).json.result.data.json;
  assert.equal(late.status, "EXPIRED");
  assert.equal(new URL(late.returnUrl).searchParams.get("status"), "EXPIRED");
});

test("an unknown checkout is 404, and one client IP is held to its limit with Retry-After", async () => {
  const unknown = await status("OWO00000000000000000");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json.error.json.data.apiCode, "S404");

  const issued = await initiate(transferBody(m.publicKey));
  let last = await status(issued.linkingReference);
  assert.ok(Number(last.headers.get("x-ratelimit-limit")) === IP_LIMIT);
  for (let i = 0; i < IP_LIMIT && last.status === 200; i++) last = await status(issued.linkingReference);
  assert.equal(last.status, 429);
  assert.equal(last.json.error.json.data.apiCode, "S429");
  assert.ok(Number(last.headers.get("retry-after")) >= 1);
});
