// A payment a signed-in person makes from the dashboard may leave out callbackUrl and redirectUrl (API.md tRPC):
// the merchant's saved defaults, else Owo's own receipt page and the merchant's webhook endpoints only.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually } from "../testing/eventually";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { newReference, sampleOrder } from "../testing/initiation";
import { startReceiver, type Receiver } from "../testing/receiver";
import { userClient } from "../testing/sessions";

let owo: Owo, endpoint: Receiver;
before(async () => {
  owo = await startOwo({ OWO_WORKER: "on" });
  endpoint = await startReceiver();
});
after(async () => {
  await endpoint.stop();
  await owo.stop();
});

const { callbackUrl: _c, redirectUrl: _r, ...order } = sampleOrder;

async function personOf(m: TestMerchant) {
  return userClient(owo, m.userId);
}

test("left out with no saved defaults: no callback, the customer stays on Owo's receipt, webhook endpoints hear of it", async () => {
  const m = await createTestMerchant();
  const person = await personOf(m);
  await person.webhooks.endpoints.add.mutate({ url: endpoint.url("/owo") });
  const paymentReference = newReference("phone-order");
  const issued = await person.initiatePayment.mutate({
    ...order,
    mobileNumber: "+2348012345678",
    paymentReference,
    paymentType: "TRANSFER",
  });
  const shown = await person.payments.byReference.query({ paymentReference });
  assert.equal(shown.callbackUrl, "");
  assert.equal(shown.redirectUrl, "");
  assert.equal(shown.customers.customerMobile, "2348012345678");

  await person.sandbox.simulate.mutate({ paymentReference, outcome: "pay" });
  const receipt = await person.checkout.status.query({ linkingReference: issued.linkingReference });
  assert.equal(receipt.status, "SUCCESSFUL");
  assert.equal(receipt.returnUrl, null, "the customer's browser ends on Owo's own receipt page");
  const told = await eventually("the payment.successful delivery", async () => {
    const list = await person.webhooks.deliveries.byPayment.query({ paymentReference });
    return list.some((d) => d.event === "payment.successful" && d.status === "delivered") && list;
  });
  assert.deepEqual([...new Set(told.map((d) => d.destination))], ["endpoint"], "only the webhook endpoint is told");
});

test("left out with saved defaults (Developers): the payment takes them; URLs sent win", async () => {
  const m = await createTestMerchant();
  const person = await personOf(m);
  const defaults = { defaultCallbackUrl: "https://shop.example.ng/owo/callback", defaultRedirectUrl: "https://shop.example.ng/thanks" };
  await person.links.setDefaults.mutate(defaults);
  const byDefault = newReference("phone-order");
  await person.initiatePayment.mutate({ ...order, paymentReference: byDefault, paymentType: "USSD", bankCode: "058" });
  const shown = await person.payments.byReference.query({ paymentReference: byDefault });
  assert.deepEqual([shown.callbackUrl, shown.redirectUrl], [defaults.defaultCallbackUrl, defaults.defaultRedirectUrl]);

  const sent = newReference("phone-order");
  await person.initiatePayment.mutate({
    ...order,
    paymentReference: sent,
    paymentType: "USSD",
    bankCode: "058",
    redirectUrl: "https://other.example.ng/done",
  });
  const mine = await person.payments.byReference.query({ paymentReference: sent });
  assert.deepEqual([mine.callbackUrl, mine.redirectUrl], [defaults.defaultCallbackUrl, "https://other.example.ng/done"]);
});
