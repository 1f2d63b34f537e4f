// Standard checkout (API.md "Standard checkout") over real HTTP: SeerBit-shaped bodies, replays, refusals, the
// customer's choice on the hosted checkout issuing the same payment, and SeerBit's meaning of callbackUrl.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, test } from "node:test";
import { call, type Owo } from "../testing/harness";
import { newReference, startInitiating, trpcClient, trpcFailure, type InitiatingMerchant } from "../testing/initiation";
import { eventually } from "../testing/eventually";
import { startReceiver, type Receiver } from "../testing/receiver";
import { write } from "../../db/client";
import { payments } from "../../db/schema";
import { dropStaleReservations } from "./issue";
import { eq } from "drizzle-orm";

let owo: Owo;
let m: InitiatingMerchant;
let receiver: Receiver;
before(async () => {
  m = await startInitiating({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001" });
  owo = m.owo;
  receiver = await startReceiver();
});
after(async () => {
  await owo.stop();
  await receiver.stop();
});

/** The body seerbit-nodejs's StandardCheckout.Initialize sends for its own sample (numbers, nulls, a hash). */
function sdkBody(patch: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    amount: 100,
    callbackUrl: "www.testapp.com",
    country: "NG",
    currency: "NGN",
    email: "testmerchant@mailinator.com",
    paymentReference: Date.now() * 1000 + Math.floor(Math.random() * 1000),
    productDescription: null,
    productId: null,
    publicKey: m.merchant.publicKey,
    ...patch,
  };
  const signed =
    Object.entries(body)
      .map(([k, v]) => `${k}=${v}`)
      .join("&") + m.merchant.secretKey;
  return { ...body, hash: createHash("sha256").update(signed).digest("hex"), hashType: "sha256" };
}

const standard = (body: unknown) => call(owo, "POST", "/api/v2/payments", { token: m.token, body });
const verify = (reference: string) => call(owo, "GET", `/api/v3/payments/query/${reference}`, { token: m.token });
const checkout = () => trpcClient(owo, "").checkout;

test("a SeerBit SDK body (amount and reference as numbers, null product fields, hash) opens a payment awaiting the customer", async () => {
  const body = sdkBody({ tokenize: false });
  const res = await standard(body);
  assert.equal(res.status, 200, res.text);
  const { status, data } = res.json;
  assert.deepEqual([status, data.code, data.message], ["SUCCESS", "00", "Successful"]);
  const p = data.payments;
  assert.deepEqual(Object.keys(p), ["redirectLink", "paymentStatus", "paymentReference", "linkingReference", "expiresAt"]);
  assert.equal(p.paymentReference, String(body.paymentReference));
  assert.equal(p.paymentStatus, "08");
  assert.match(p.linkingReference, /^OWO\d{17}$/);
  assert.equal(p.redirectLink, `${owo.url}/checkout/${p.linkingReference}`);
  const lifetime = Date.parse(p.expiresAt) - Date.now();
  assert.ok(lifetime > 1_790_000 && lifetime <= 1_800_000, `OWO_TRANSFER_TTL_SECONDS from creation, got ${lifetime}`);

  const verified = await verify(p.paymentReference);
  assert.equal(verified.json.data.code, "S20");
  const v = verified.json.data.payments;
  assert.deepEqual([v.paymentType, v.status, v.amount, v.provider, v.gatewayCode], [null, "PENDING", "100.00", null, "S20"]);
  assert.deepEqual(verified.json.data.customers, { customerName: "", customerMobile: "", customerEmail: "testmerchant@mailinator.com" });

  // The same request again (the amount as "100.00" this time) answers the very same bytes; a different one is S14.
  const again = await standard({ ...body, amount: "100.00" });
  assert.equal(again.text, res.text);
  const other = await standard({ ...body, amount: 200 });
  assert.deepEqual([other.status, other.json.data.code], [409, "S14"]);
  // The same reference over tRPC is the same request too.
  const { publicKey: _pk, ...trpcBody } = body;
  assert.deepEqual(await m.trpc.standardCheckout.mutate(trpcBody as Parameters<typeof m.trpc.standardCheckout.mutate>[0]), p);
});

test("refusals name their fields in API.md's codes, over REST and tRPC alike", async () => {
  const amount = await standard(sdkBody({ amount: "12.345" }));
  assert.deepEqual([amount.status, amount.json.data.code, amount.json.data.errors[0].field], [400, "S2", "amount"]);
  const tooMuch = await standard(sdkBody({ amount: 10_000_001 }));
  assert.equal(tooMuch.json.data.code, "S2");
  assert.equal((await standard(sdkBody({ currency: "USD" }))).json.data.code, "S4");
  assert.equal((await standard(sdkBody({ country: "GH" }))).json.data.code, "S6");
  const many = await standard(sdkBody({ email: "nope", amount: "x", tokenize: "yes", callbackUrl: "ftp://shop.ng" }));
  assert.equal(many.json.data.code, "S5");
  assert.deepEqual(many.json.data.errors.map((e: { field: string }) => e.field).sort(), ["amount", "callbackUrl", "email", "tokenize"]);
  const other = await standard(sdkBody({ publicKey: "pk_test_someone_else" }));
  assert.deepEqual([other.status, other.json.data.code], [401, "S1"]);

  const viaTrpc = await trpcFailure(
    m.trpc.standardCheckout.mutate({ amount: 1, currency: "NGN", country: "NG", paymentReference: newReference(), email: "a@b.ng" }),
  );
  assert.deepEqual([viaTrpc.code, viaTrpc.apiCode, viaTrpc.errors[0]?.field], ["BAD_REQUEST", "S2", "amount"]);
});

test("the customer chooses USSD and a bank on the hosted checkout: the same payment gets its dial code, pays, and returns to callbackUrl", async () => {
  const body = sdkBody({ amount: "2500.50", fullName: "Ada Obi", mobileNumber: "08012345678" });
  const created = (await standard(body)).json.data.payments;
  const before = await checkout().status.query({ linkingReference: created.linkingReference });
  assert.equal(before.issued, null);
  assert.ok(before.offer && before.offer.ussdBanks.some((b) => b.bankCode === "044"));

  const chosen = await checkout().choose.mutate({ linkingReference: created.linkingReference, paymentType: "USSD", bankCode: "044" });
  assert.equal(chosen.offer, null);
  assert.ok(chosen.issued?.paymentType === "USSD");
  assert.match(chosen.issued.dialCode, /^\*901\*000\*\d{8}#$/);
  const v = (await verify(created.paymentReference)).json.data.payments;
  assert.deepEqual([v.paymentType, v.provider, v.linkingReference, v.amount], ["USSD", "sandbox", created.linkingReference, "2500.50"]);
  assert.ok(Date.parse(v.expiresAt) <= Date.now() + 600_000, "choosing USSD shortens the lifetime to USSD's");

  // A second tap of the same choice shows the same code; another channel is refused.
  const again = await checkout().choose.mutate({ linkingReference: created.linkingReference, paymentType: "USSD", bankCode: "044" });
  assert.deepEqual(again.issued, chosen.issued);
  const switched = await trpcFailure(checkout().choose.mutate({ linkingReference: created.linkingReference, paymentType: "TRANSFER" }));
  assert.equal(switched.apiCode, "S15");

  const paid = await call(owo, "POST", `/api/v2/sandbox/payments/${created.paymentReference}/simulate`, {
    token: m.token,
    body: { outcome: "pay" },
  });
  assert.equal(paid.json.data.payments.status, "SUCCESSFUL");
  const after = await checkout().status.query({ linkingReference: created.linkingReference });
  // SeerBit's meaning: with no redirectUrl, callbackUrl is where the browser returns (scheme added).
  assert.equal(after.returnUrl, `https://www.testapp.com/?paymentReference=${created.paymentReference}&status=SUCCESSFUL`);
});

test("with redirectUrl too, the browser goes there and callbackUrl gets the signed callbacks; TRANSFER is chosen the same way", async () => {
  const body = sdkBody({ callbackUrl: receiver.url(), redirectUrl: "shop.example.ng/thanks", amount: 1_500_000 });
  const created = (await standard(body)).json.data.payments;
  const offered = await checkout().status.query({ linkingReference: created.linkingReference });
  assert.deepEqual(offered.offer?.ussdBanks, [], "USSD is offered only up to 1,000,000.00");
  const ussd = await trpcFailure(
    checkout().choose.mutate({ linkingReference: created.linkingReference, paymentType: "USSD", bankCode: "044" }),
  );
  assert.equal(ussd.apiCode, "S2");

  const chosen = await checkout().choose.mutate({ linkingReference: created.linkingReference, paymentType: "TRANSFER" });
  assert.ok(chosen.issued?.paymentType === "TRANSFER");
  assert.match(chosen.issued.accountNumber, /^\d{10}$/);
  await call(owo, "POST", `/api/v2/sandbox/payments/${created.paymentReference}/simulate`, { token: m.token, body: { outcome: "pay" } });
  const callback = await eventually("the payment.successful callback", () =>
    receiver.received.find((r) => r.body.includes("payment.successful")),
  );
  const data = JSON.parse(callback.body).notificationItems[0].notificationRequestItem.data;
  assert.deepEqual(
    [data.reference, data.paymentType, data.gatewayCode, data.amountPaid],
    [created.paymentReference, "TRANSFER", "00", "1500000.00"],
  );
  const done = await checkout().status.query({ linkingReference: created.linkingReference });
  assert.equal(done.returnUrl, `https://shop.example.ng/thanks?paymentReference=${created.paymentReference}&status=SUCCESSFUL`);
});

test("a choice whose process died mid-issue is released by the sweeper, never dropped: the payment was already answered to the merchant", async () => {
  const created = (await standard(sdkBody())).json.data.payments;
  // As if a process reserved the customer's choice, then died before the provider answered.
  await write(async (tx) =>
    tx
      .update(payments)
      .set({ reservedAt: Date.now() - 3_600_000 })
      .where(eq(payments.linkingReference, created.linkingReference)),
  );
  await dropStaleReservations();
  const v = (await verify(created.paymentReference)).json.data.payments;
  assert.deepEqual([v.status, v.paymentType], ["PENDING", null]);
  const chosen = await checkout().choose.mutate({ linkingReference: created.linkingReference, paymentType: "TRANSFER" });
  assert.equal(chosen.issued?.paymentType, "TRANSFER", "the customer can choose again");
});
