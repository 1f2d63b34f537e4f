// The webhooks router over real HTTP: roles, merchant scoping, endpoints, the signing secret, deliveries and re-send.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../../testing/harness";
import { trpcClient, trpcFailure } from "../../testing/initiation";
import { userClient } from "../../testing/sessions";
import { eventually } from "../../testing/eventually";
import { credit, openTransfer } from "../../testing/in-process-payments";
import { startReceiver, type Receiver } from "../../testing/receiver";
import { joinByInvite } from "../../team/invites";

type Client = Awaited<ReturnType<typeof userClient>>;

let owo: Owo;
let m: TestMerchant;
let owner: Client;
let developer: Client;
let viewer: Client;
let receiver: Receiver;
const receivers: Receiver[] = [];
let people = 0;

/** Invites someone with `role` and signs them up through the link, as the sign-up page does. */
async function join(role: "developer" | "viewer"): Promise<Client> {
  const invite = await owner.team.invite.mutate({ role });
  const token = new URL(invite.url).searchParams.get("invite") ?? "";
  const joined = await joinByInvite({
    name: `Person ${++people}`,
    email: `wh${people}.${Date.now()}@example.com`,
    password: "long enough pw",
    invite: token,
  });
  return userClient(owo, joined.userId);
}

before(async () => {
  owo = await startOwo({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.0005", OWO_ALLOW_PRIVATE_CALLBACKS: "1" });
  m = await createTestMerchant();
  owner = await userClient(owo, m.userId);
  developer = await join("developer");
  viewer = await join("viewer");
  receiver = await startReceiver();
  receivers.push(receiver);
});
after(async () => {
  await owo.stop();
  await Promise.all(receivers.map((r) => r.stop()));
});

test("a viewer may read but not add an endpoint or see the signing secret; a developer may", async () => {
  const refused = await trpcFailure(viewer.webhooks.endpoints.add.mutate({ url: receiver.url("/viewer") }));
  assert.equal(refused.code, "FORBIDDEN");
  assert.equal(refused.apiCode, "S3");
  assert.equal((await trpcFailure(viewer.webhooks.secret.reveal.mutate())).code, "FORBIDDEN");
  assert.deepEqual(await viewer.webhooks.endpoints.list.query(), []);

  const added = await developer.webhooks.endpoints.add.mutate({ url: receiver.url("/hooks"), description: "ledger" });
  assert.equal(added.enabled, true);
  assert.equal(added.description, "ledger");
  assert.deepEqual(
    (await viewer.webhooks.endpoints.list.query()).map((e) => e.url),
    [receiver.url("/hooks")],
  );
  assert.equal((await developer.webhooks.secret.reveal.mutate()).secret, m.webhookSecret);
});

test("a bad endpoint URL names the field; the same URL twice is a conflict", async () => {
  for (const url of ["ftp://shop.example.ng/hooks", "not a url", "https://user:pw@shop.example.ng/hooks"]) {
    const bad = await trpcFailure(developer.webhooks.endpoints.add.mutate({ url }));
    assert.equal(bad.code, "BAD_REQUEST", url);
    assert.deepEqual(
      bad.errors.map((e) => e.field),
      ["url"],
      url,
    );
  }
  assert.equal((await trpcFailure(developer.webhooks.endpoints.add.mutate({ url: receiver.url("/hooks") }))).code, "CONFLICT");
});

test("a developer sees a payment's deliveries with their attempts and re-sends one: same webhook-id, same body", async () => {
  const { paymentReference, accountNumber } = await openTransfer(m.merchantId, receiver.url("/callback"));
  await credit(accountNumber);
  const delivered = await eventually("both deliveries", async () => {
    const list = await developer.webhooks.deliveries.byPayment.query({ paymentReference });
    return list.length === 2 && list.every((d) => d.status === "delivered") && list;
  });
  const [callback, endpoint] = delivered;
  assert.ok(callback && endpoint);
  assert.deepEqual([callback.destination, callback.url, callback.attempts.length], ["callback", receiver.url("/callback"), 1]);
  assert.equal(callback.attempts[0]?.statusCode, 200);
  assert.equal(endpoint.eventId, callback.eventId);
  assert.deepEqual(
    (await viewer.webhooks.deliveries.byEndpoint.query({ endpointId: endpoint.endpointId ?? "" })).map((d) => d.id),
    [endpoint.id],
  );

  const before = receiver.received.filter((r) => r.path === "/callback").length;
  assert.equal((await trpcFailure(viewer.webhooks.deliveries.resend.mutate({ deliveryId: callback.id }))).code, "FORBIDDEN");
  await developer.webhooks.deliveries.resend.mutate({ deliveryId: callback.id });
  const again = await eventually("the re-sent callback", async () => {
    const [d] = await developer.webhooks.deliveries.byPayment.query({ paymentReference });
    return d?.attempts.length === 2 && d.status === "delivered" && d;
  });
  assert.equal(again.attemptCount, 2);
  const calls = receiver.received.filter((r) => r.path === "/callback").slice(before - 1);
  assert.equal(calls.length, 2);
  assert.equal(calls[1]?.headers["webhook-id"], callback.eventId);
  assert.equal(calls[1]?.body, calls[0]?.body);
  new Webhook(m.webhookSecret).verify(calls[1]?.body ?? "", calls[1]?.headers as Record<string, string>);
});

test("another merchant's endpoints, payments and deliveries are not found", async () => {
  const other = await createTestMerchant();
  const stranger = await userClient(owo, other.userId);
  const [endpoint] = await owner.webhooks.endpoints.list.query();
  assert.ok(endpoint);
  const { paymentReference, accountNumber } = await openTransfer(m.merchantId, receiver.url("/callback"));
  await credit(accountNumber);
  const [delivery] = await eventually("a delivery", async () => {
    const list = await owner.webhooks.deliveries.byPayment.query({ paymentReference });
    return list.length > 0 && list;
  });
  assert.ok(delivery);
  const notFound = async (p: Promise<unknown>) => assert.equal((await trpcFailure(p)).code, "NOT_FOUND");
  await notFound(stranger.webhooks.deliveries.byPayment.query({ paymentReference }));
  await notFound(stranger.webhooks.deliveries.byEndpoint.query({ endpointId: endpoint.id }));
  await notFound(stranger.webhooks.deliveries.resend.mutate({ deliveryId: delivery.id }));
  for (const change of [stranger.webhooks.endpoints.disable, stranger.webhooks.endpoints.enable, stranger.webhooks.endpoints.delete]) {
    await notFound(change.mutate({ endpointId: endpoint.id }));
  }
  assert.deepEqual(await stranger.webhooks.endpoints.list.query(), []);
  assert.equal((await owner.webhooks.endpoints.list.query())[0]?.enabled, true, "untouched");
  // A machine with the other merchant's key is scoped the same way.
  const machine = trpcClient(owo, await tokenFor(owo, other));
  await notFound(machine.webhooks.deliveries.byPayment.query({ paymentReference }));
});

test("a disabled endpoint hears nothing until enabled; a deleted one leaves the list", async () => {
  const own = await startReceiver();
  receivers.push(own);
  const endpoint = await developer.webhooks.endpoints.add.mutate({ url: own.url("/toggle") });
  const disabled = await developer.webhooks.endpoints.disable.mutate({ endpointId: endpoint.id });
  assert.deepEqual([disabled.enabled, disabled.disabledReason], [false, "disabled by the merchant"]);
  const quiet = await openTransfer(m.merchantId, receiver.url("/callback"));
  await credit(quiet.accountNumber);
  const quietDeliveries = await eventually("the callback", async () => {
    const list = await developer.webhooks.deliveries.byPayment.query({ paymentReference: quiet.paymentReference });
    return list[0]?.status === "delivered" && list;
  });
  assert.ok(!quietDeliveries.some((d) => d.endpointId === endpoint.id), "no delivery for the disabled endpoint");

  assert.equal((await developer.webhooks.endpoints.enable.mutate({ endpointId: endpoint.id })).enabled, true);
  const heard = await openTransfer(m.merchantId, receiver.url("/callback"));
  await credit(heard.accountNumber);
  await eventually("the enabled endpoint's delivery", () => own.received.length === 1);
  assert.equal(
    JSON.parse(own.received[0]?.body ?? "{}").notificationItems[0].notificationRequestItem.data.paymentReference,
    heard.paymentReference,
  );

  await developer.webhooks.endpoints.delete.mutate({ endpointId: endpoint.id });
  assert.ok(!(await developer.webhooks.endpoints.list.query()).some((e) => e.id === endpoint.id));
  assert.equal((await trpcFailure(developer.webhooks.deliveries.byEndpoint.query({ endpointId: endpoint.id }))).code, "NOT_FOUND");
});

test("rolling the signing secret: the new one is revealed, and during the grace both sign", async () => {
  const { secret } = await developer.webhooks.secret.roll.mutate({ graceSeconds: 300 });
  assert.match(secret, /^whsec_/);
  assert.notEqual(secret, m.webhookSecret);
  assert.equal((await owner.webhooks.secret.reveal.mutate()).secret, secret);
  const count = receiver.received.length;
  const p = await openTransfer(m.merchantId, receiver.url("/callback"));
  await credit(p.accountNumber);
  await eventually("callbacks after the roll", () => receiver.received.length > count);
  const got = receiver.received[count];
  assert.ok(got);
  for (const s of [secret, m.webhookSecret]) new Webhook(s).verify(got.body, got.headers as Record<string, string>);
  assert.equal((await trpcFailure(developer.webhooks.secret.roll.mutate({ graceSeconds: 90000 }))).code, "BAD_REQUEST");
});
