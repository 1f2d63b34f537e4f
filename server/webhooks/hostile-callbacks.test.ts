// With OWO_ALLOW_PRIVATE_CALLBACKS off, no spelling of a local, private or metadata address gets a callback:
// a listener on every local interface sees no connection, and each attempt is recorded as refused.
import assert from "node:assert/strict";
import { hostname, networkInterfaces } from "node:os";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { refusalReason } from "./address-guard";
import { deliveriesOfPayment } from "./delivery-log";
import { eventually } from "../testing/eventually";
import { credit, openTransfer } from "../testing/in-process-payments";
import { startReceiver, type Receiver } from "../testing/receiver";
import { addEndpoint } from "./endpoints";
import { connectProvider, setForwardUrl } from "../providers/accounts";
import { spawnDouble } from "../testing/processes";
import { recentForwards } from "./forwards";

let owo: Owo;
let m: TestMerchant;
let listener: Receiver;
let redirector: Receiver;
before(async () => {
  owo = await startOwo({ OWO_WORKER: "on", OWO_ALLOW_PRIVATE_CALLBACKS: "0", OWO_WEBHOOK_BACKOFF_SCALE: "0.0005" });
  m = await createTestMerchant();
  // "::" also takes IPv4 here: one listener behind every address this machine answers on.
  listener = await startReceiver(() => 200, "::");
  redirector = await startReceiver(() => ({ status: 307, location: listener.url() }));
});
after(async () => {
  await owo.stop();
  await listener.stop();
  await redirector.stop();
});

function hostileUrls(port: number): string[] {
  const p = `:${port}`;
  // This machine's own interface addresses reach the listener too; public ones (a CI host's) are not hostile.
  const own = Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i && refusalReason(i.address) !== null ? [i.family === "IPv6" ? `[${i.address.split("%")[0]}]` : i.address] : []));
  return [
    `http://127.0.0.1${p}/cb`,
    `http://127.1.2.3${p}/cb`,
    `https://127.0.0.1${p}/cb`,
    `http://localhost${p}/cb`,
    `http://LOCALHOST.${p}/cb`,
    `http://shop.localhost${p}/cb`,
    `http://${hostname()}${p}/cb`,
    `http://[::1]${p}/cb`,
    `http://[0:0:0:0:0:0:0:1]${p}/cb`,
    `http://[::]${p}/cb`,
    `http://[::ffff:127.0.0.1]${p}/cb`,
    `http://[::ffff:7f00:1]${p}/cb`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]${p}/cb`,
    `http://[::127.0.0.1]${p}/cb`,
    `http://[64:ff9b::7f00:1]${p}/cb`,
    `http://[2002:7f00:1::]${p}/cb`,
    `http://2130706433${p}/cb`,
    `http://0x7f000001${p}/cb`,
    `http://0x7f.0.0.1${p}/cb`,
    `http://017700000001${p}/cb`,
    `http://0177.0.0.1${p}/cb`,
    `http://127.1${p}/cb`,
    `http://0${p}/cb`,
    `http://0.0.0.0${p}/cb`,
    `http://10.0.0.1${p}/cb`,
    `http://172.16.0.1${p}/cb`,
    `http://172.31.255.254${p}/cb`,
    `http://192.168.1.1${p}/cb`,
    `http://192.168.0.1.${p}/cb`,
    `http://100.64.0.1${p}/cb`,
    "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    `http://169.254.169.254${p}/cb`,
    "http://2852039166/latest/meta-data/",
    "http://0xa9fea9fe/latest/meta-data/",
    "http://0251.0376.0251.0376/latest/meta-data/",
    "http://[::ffff:169.254.169.254]/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    `http://[fe80::1]${p}/cb`,
    `http://[fc00::1]${p}/cb`,
    redirector.url("/to-private"),
    ...own.map((address) => `http://${address}${p}/cb`),
  ];
}

test("at least 30 hostile callback URLs: no connection reaches a listener, every attempt is recorded as refused", async () => {
  // The listener works: a direct request from this test reaches it.
  assert.equal((await fetch(listener.url())).status, 200);
  const connectionsBefore = listener.connections();
  const requestsBefore = listener.received.length;

  const urls = hostileUrls(listener.port);
  assert.ok(urls.length >= 30, `${urls.length} URLs`);
  const sent: { url: string; reference: string }[] = [];
  for (const url of urls) {
    const payment = await openTransfer(m.merchantId, url);
    await credit(payment.accountNumber);
    sent.push({ url, reference: payment.paymentReference });
  }

  // Two attempts each: the retry is refused as well as the first try.
  const outcome = await eventually(
    "two attempts at every URL",
    async () => {
      const all = await Promise.all(
        sent.map(async (s) => ({
          ...s,
          delivery: (await deliveriesOfPayment({ merchantId: m.merchantId, mode: "test" }, s.reference))[0],
        })),
      );
      return all.every((a) => (a.delivery?.attempts.length ?? 0) >= 2) && all;
    },
    20_000,
  );

  for (const { url, delivery } of outcome) {
    assert.equal(delivery?.status, "pending", url);
    for (const attempt of delivery?.attempts ?? []) {
      assert.equal(attempt.statusCode, null, url);
      assert.match(attempt.error ?? "", /^refused: /, url);
    }
  }
  assert.match(outcome.find((o) => o.url.includes(hostname()))?.delivery?.attempts[0]?.error ?? "", / resolves to .*, which is /);
  assert.equal(listener.connections(), connectionsBefore);
  assert.equal(listener.received.length, requestsBefore);
  assert.equal(redirector.connections(), 0);
});

test("an endpoint on a loopback, private or metadata address is refused when added", async () => {
  for (const url of [
    `http://127.0.0.1:${listener.port}/hooks`,
    "http://localhost/hooks",
    "http://[::1]/hooks",
    "http://169.254.169.254/latest",
    "http://0x7f000001/hooks",
  ]) {
    await assert.rejects(
      () => addEndpoint({ merchantId: m.merchantId, mode: "test" }, { url }),
      (e: Error & { errors?: { field: string; message: string }[] }) => {
        assert.equal(e.errors?.[0]?.field, "url", url);
        assert.match(e.errors?.[0]?.message ?? "", /refused: /, url);
        return true;
      },
    );
  }
});

test("a forwarding URL follows the same rules: refused on a private address when set, and at each attempt when a name resolves to one", async () => {
  const paystack = await spawnDouble("paystack", { "secret-key": "sk_test_hostile_forward" });
  try {
    const { providerId, noticeUrl } = await connectProvider(m.merchantId, {
      provider: "paystack",
      credentials: { secretKey: "sk_test_hostile_forward" },
      baseUrl: paystack.url,
    });
    for (const url of [`http://127.0.0.1:${listener.port}/fwd`, "http://169.254.169.254/latest", "http://[::1]/fwd"]) {
      await assert.rejects(
        () => setForwardUrl(m.merchantId, providerId, url),
        (e: Error & { errors?: { field: string; message: string }[] }) => {
          assert.equal(e.errors?.[0]?.field, "forwardUrl", url);
          assert.match(e.errors?.[0]?.message ?? "", /refused: /, url);
          return true;
        },
      );
    }
    // This machine's own name passes the shape check and resolves to a local address: every attempt is refused.
    await setForwardUrl(m.merchantId, providerId, `http://${hostname()}:${listener.port}/fwd`);
    await fetch(`${paystack.url}/_double/webhook-url`, { method: "PUT", body: JSON.stringify({ url: noticeUrl }) });
    const reference = `walk-in-${process.pid}`;
    await fetch(`${paystack.url}/charge`, {
      method: "POST",
      headers: { authorization: "Bearer sk_test_hostile_forward" },
      body: JSON.stringify({ email: "walkin@example.com", amount: 500000, reference, bank_transfer: {} }),
    });
    const connectionsBefore = listener.connections();
    await fetch(`${paystack.url}/_double/transactions/${reference}/pay`, { method: "POST", body: "{}" });
    const [forward] = await eventually("two refused attempts", async () => {
      const list = await recentForwards(m.merchantId, providerId);
      return (list[0]?.attemptCount ?? 0) >= 2 && list;
    });
    assert.equal(forward?.reference, reference);
    assert.match(forward?.lastError ?? "", /refused: /);
    assert.equal(listener.connections(), connectionsBefore);
  } finally {
    await paystack.stop();
  }
});
