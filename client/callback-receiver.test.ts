// The docs' callback receiver, run as its own process against a real Owo whose worker delivers signed callbacks to it.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import { callbackExample } from "../server/openapi/callback-examples";
import { eventually } from "../server/testing/eventually";
import { createTestMerchant, freePort, startOwo, type Owo, type TestMerchant } from "../server/testing/harness";
import { createOwoClient, type OwoClient } from "./index";

let owo: Owo;
let merchant: TestMerchant;
let owoClient: OwoClient;
let receiver: ChildProcess;
let receiverUrl = "";
const lines: string[] = [];

/** Waits until the receiver has printed a line matching `pattern`, and returns it. */
const printed = (pattern: RegExp, timeoutMs = 20_000): Promise<string> =>
  eventually(
    `the receiver to print ${pattern}`,
    () => lines.find((l) => pattern.test(l)),
    timeoutMs,
    () => `it printed:\n${lines.join("\n")}`,
  );

before(async () => {
  owo = await startOwo({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001", OWO_ALLOW_PRIVATE_CALLBACKS: "1" });
  merchant = await createTestMerchant("Receiver Store");
  owoClient = createOwoClient({ baseUrl: owo.url, publicKey: merchant.publicKey, secretKey: merchant.secretKey });
  const port = await freePort();
  receiverUrl = `http://127.0.0.1:${port}/owo/callback`;
  receiver = spawn(process.execPath, [fileURLToPath(new URL("callback-receiver.example.mjs", import.meta.url))], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", OWO_WEBHOOK_SECRET: merchant.webhookSecret, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let pending = "";
  receiver.stdout?.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const complete = pending.split("\n");
    pending = complete.pop() ?? "";
    lines.push(...complete);
  });
  await printed(/^listening$/);
});
after(async () => {
  receiver.kill();
  await owo.stop();
});

describe("the callback receiver of the docs", () => {
  let reference = "";

  it("verifies Owo's signed callback and reads the event", async () => {
    const answer = await owoClient.initiatePayment.mutate({
      fullName: "Ada Obi",
      mobileNumber: "08012345678",
      email: "ada@example.com",
      currency: "NGN",
      country: "NG",
      callbackUrl: receiverUrl,
      redirectUrl: "https://shop.example.ng/thanks",
      amount: "1500",
      paymentType: "USSD",
      bankCode: "058",
      paymentReference: "ord-callback",
    });
    reference = answer.paymentReference;
    await owoClient.sandbox.simulate.mutate({ paymentReference: reference, outcome: "pay" });
    assert.equal(await printed(/^payment\.successful/), "payment.successful ord-callback: SUCCESSFUL, paid 1500.00 (sequence 2)");
  });

  it("handles a resend (same eventId) once", async () => {
    const [delivery] = await owoClient.webhooks.deliveries.byPayment.query({ paymentReference: reference });
    assert.ok(delivery);
    await owoClient.webhooks.deliveries.resend.mutate({ deliveryId: delivery.id });
    await printed(new RegExp(`^repeat of ${delivery.eventId}: already handled$`));
    assert.equal(lines.filter((l) => l.startsWith("payment.successful")).length, 1);
  });

  it("drops an older event that arrives after a newer one", async () => {
    const item = callbackExample.notificationItems[0]?.notificationRequestItem;
    assert.ok(item);
    const late = {
      notificationItems: [
        {
          notificationRequestItem: {
            ...item,
            eventId: "evt_late",
            data: { ...item.data, event: "payment.partially_paid", sequence: 1, paymentReference: reference },
          },
        },
      ],
    };
    const body = JSON.stringify(late);
    const signed = new Webhook(merchant.webhookSecret).sign("evt_late", new Date(), body);
    const now = String(Math.floor(Date.now() / 1000));
    const res = await fetch(receiverUrl, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "webhook-id": "evt_late", "webhook-timestamp": now, "webhook-signature": signed },
    });
    assert.equal(res.status, 204);
    await printed(/^stale payment\.partially_paid for ord-callback: sequence 1 is older$/);
  });

  it("refuses a body whose signature does not verify", async () => {
    const body = JSON.stringify(callbackExample);
    const forged = new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).sign("evt_forged", new Date(), body);
    const res = await fetch(receiverUrl, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "webhook-id": "evt_forged",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": forged,
      },
    });
    assert.equal(res.status, 400);
    await printed(/^refused: signature does not verify$/);
  });
});
