// A receiver written the way SeerBit shop plugins read notifications marks its order paid from Owo's callback.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { ussdBody } from "../testing/initiation";
import { eventually } from "../testing/eventually";

let owo: Owo;
let m: TestMerchant;
let token: string;
let shop: Server;
/** The shop's orders by reference, as a plugin keeps them: "pending" until a notification says paid. */
const orders = new Map<string, "pending" | "paid">();

/**
 * What SeerBit's shop plugins do with a notification (e.g. its WooCommerce plugin): take the first
 * notificationRequestItem, find the order by `data.reference`, and call it paid when `data.gatewayCode == "00"`.
 */
function shopPluginReceiver(body: string): void {
  const event = JSON.parse(body) as {
    notificationItems?: { notificationRequestItem?: { data?: { reference?: string; gatewayCode?: string } } }[];
  };
  const data = event.notificationItems?.[0]?.notificationRequestItem?.data;
  if (!data?.reference || !orders.has(data.reference)) return;
  if (data.gatewayCode == "00") orders.set(data.reference, "paid"); // eslint-disable-line eqeqeq -- written as the plugins write it
}

before(async () => {
  owo = await startOwo({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001" });
  m = await createTestMerchant();
  token = await tokenFor(owo, m);
  shop = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      shopPluginReceiver(Buffer.concat(chunks).toString("utf8"));
      res.end("ok");
    });
  });
  await new Promise<void>((r) => shop.listen(0, "127.0.0.1", r));
});
after(async () => {
  await owo.stop();
  await new Promise((r) => shop.close(r));
});

test("a shop plugin's receiver marks the order paid from Owo's callback (data.reference, data.gatewayCode)", async () => {
  const callbackUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/wc-api/seerbit`;
  const body = ussdBody(m.publicKey, { callbackUrl });
  const reference = String(body.paymentReference);
  orders.set(reference, "pending");
  assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token, body })).status, 200);
  assert.equal(orders.get(reference), "pending");

  const paid = await call(owo, "POST", `/api/v2/sandbox/payments/${reference}/simulate`, { token, body: { outcome: "pay" } });
  assert.equal(paid.status, 200, paid.text);
  await eventually("the shop to mark its order paid", () => orders.get(reference) === "paid");
});

test("a declined payment's callback leaves the order unpaid, and carries the other SeerBit fields", async () => {
  const received: Record<string, unknown>[] = [];
  const spy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      shopPluginReceiver(text);
      received.push(JSON.parse(text).notificationItems[0].notificationRequestItem.data);
      res.end("ok");
    });
  });
  await new Promise<void>((r) => spy.listen(0, "127.0.0.1", r));
  try {
    const body = ussdBody(m.publicKey, { callbackUrl: `http://127.0.0.1:${(spy.address() as AddressInfo).port}/notify` });
    const reference = String(body.paymentReference);
    orders.set(reference, "pending");
    await call(owo, "POST", "/api/v2/payments/initiates", { token, body });
    await call(owo, "POST", `/api/v2/sandbox/payments/${reference}/simulate`, { token, body: { outcome: "decline" } });
    const data = await eventually("the failure callback", () => received[0]);
    assert.equal(orders.get(reference), "pending");
    assert.deepEqual(
      {
        reference: data.reference,
        gatewayCode: data.gatewayCode,
        gatewayMessage: data.gatewayMessage,
        publicKey: data.publicKey,
        provider: data.provider,
        amountRefunded: data.amountRefunded,
      },
      {
        reference,
        gatewayCode: "S12",
        gatewayMessage: "Transaction Failed",
        publicKey: m.publicKey,
        provider: "sandbox",
        amountRefunded: "0.00",
      },
    );

    const verified = await call(owo, "GET", `/api/v3/payments/query/${reference}`, { token });
    const p = verified.json.data.payments;
    assert.deepEqual(
      { gatewayCode: p.gatewayCode, gatewayMessage: p.gatewayMessage, provider: p.provider, amountRefunded: p.amountRefunded },
      { gatewayCode: "S12", gatewayMessage: "Transaction Failed", provider: "sandbox", amountRefunded: "0.00" },
    );
  } finally {
    await new Promise((r) => spy.close(r));
  }
});
