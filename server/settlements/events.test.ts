// settlement.paid and reconciliation.exception reach the merchant's webhook endpoints, signed like every callback,
// under their own eventType; the payment's callback URL hears nothing of them.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { call } from "../testing/harness";
import { eventually } from "../testing/eventually";
import { startInitiating, transferBody, type InitiatingMerchant } from "../testing/initiation";
import { startReceiver, type Receiver } from "../testing/receiver";
import { addEndpoint } from "../webhooks/endpoints";
import { deliveriesOfEndpoint } from "../webhooks/delivery-log";

let s: InitiatingMerchant;
let r: Receiver;
before(async () => {
  s = await startInitiating({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.0005" });
  r = await startReceiver();
});
after(async () => {
  await s.owo.stop();
  await r.stop();
});

type Item = { eventType: string; eventId: string; data: Record<string, unknown> };
const itemOf = (body: string) =>
  (JSON.parse(body) as { notificationItems: { notificationRequestItem: Item }[] }).notificationItems[0]?.notificationRequestItem;

test("a settlement paid short sends settlement.paid and reconciliation.exception to the endpoint, signed", async () => {
  const endpoint = await addEndpoint({ merchantId: s.merchant.merchantId, mode: "test" }, { url: r.url("/hooks") });
  const body = transferBody(s.merchant.publicKey, { amount: "2000.00", callbackUrl: r.url("/callback") });
  assert.equal((await call(s.owo, "POST", "/api/v2/payments/initiates", { token: s.token, body })).status, 200);
  await call(s.owo, "POST", `/api/v2/sandbox/payments/${String(body.paymentReference)}/simulate`, {
    token: s.token,
    body: { outcome: "pay" },
  });
  const settled = (await call(s.owo, "POST", "/api/v2/sandbox/settlements", { token: s.token, body: { shortBy: "10.00" } })).json.data
    .settlement;
  const items = await eventually("both events at the endpoint", async () => {
    const got = r.received.filter((x) => x.path === "/hooks").map((x) => ({ x, item: itemOf(x.body) }));
    const wanted = got.filter((g) => g.item?.eventType !== "transaction");
    return wanted.length >= 2 && wanted;
  });
  const byType = new Map(items.map((g) => [g.item?.eventType, g]));
  const paid = byType.get("settlement");
  const exception = byType.get("reconciliation");
  assert.ok(paid && exception);
  assert.equal(paid.item?.data.event, "settlement.paid");
  assert.equal(paid.item?.data.settlementId, settled.settlementId);
  assert.equal(paid.item?.data.netAmount, settled.netAmount);
  assert.equal(exception.item?.data.event, "reconciliation.exception");
  assert.equal(exception.item?.data.kind, "net_mismatch");
  assert.equal(exception.item?.data.settlementId, settled.settlementId);
  for (const g of [paid, exception]) new Webhook(s.merchant.webhookSecret).verify(g.x.body, g.x.headers as Record<string, string>);
  assert.ok(
    r.received.filter((x) => x.path === "/callback").every((x) => itemOf(x.body)?.eventType === "transaction"),
    "the payment's callback URL gets its payment's events only",
  );
  const log = await eventually("delivered in the endpoint's log", async () => {
    const list = await deliveriesOfEndpoint({ merchantId: s.merchant.merchantId, mode: "test" }, endpoint.id);
    const ours = list.filter((d) => d.event !== "payment.successful");
    return ours.length === 2 && ours.every((d) => d.status === "delivered") && ours;
  });
  assert.deepEqual(log.map((d) => [d.event, d.paymentReference]).sort(), [
    ["reconciliation.exception", null],
    ["settlement.paid", null],
  ]);
});
