// A merchant in live mode on a provider's test double, as the live suites need one: its account connected to the
// double (in the test's own process, so no credential check is made at the double), the double's webhooks sent to
// that account's notice URL, and live keys with a token.
import { after, before } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Answer, type Owo } from "./harness";
import { initiated, newReference, sampleOrder, type Body } from "./initiation";
import { doubleFlags, spawnDouble, type DoubleProcess } from "./processes";
import { startReceiver, type Receiver } from "./receiver";
import { connectProvider } from "../providers/accounts";
import { createLiveKeys } from "../auth/api-keys";

export type LiveMerchant = {
  merchantId: string;
  userId: string;
  publicKey: string;
  webhookSecret: string;
  token: string;
  providerId: string;
  noticeUrl: string;
};

type LiveMerchantProvider = "paystack" | "flutterwave" | "seerbit";

export async function connectLiveMerchant(
  owo: Owo,
  double: DoubleProcess,
  name: string,
  provider: LiveMerchantProvider,
  credentials: Record<string, string>,
): Promise<LiveMerchant> {
  const merchant = await createTestMerchant(name);
  const { providerId, noticeUrl } = await connectProvider(merchant.merchantId, { provider, credentials, baseUrl: double.url });
  const pointed = await call({ url: double.url }, "PUT", "/_double/webhook-url", { body: { url: noticeUrl } });
  if (pointed.status >= 300) throw new Error(`the ${provider} double refused its webhook URL: ${pointed.text}`);
  const keys = await createLiveKeys(merchant.merchantId);
  return {
    merchantId: merchant.merchantId,
    userId: merchant.userId,
    publicKey: keys.publicKey,
    webhookSecret: keys.webhookSecret,
    token: await tokenFor(owo, keys),
    providerId,
    noticeUrl,
  };
}

/** The merchant's account at `double` connected (in the test's own process, so no credential check is made at the
 * double), ranked `priority` among its accounts: its providerId. */
export async function connectAt(
  merchantId: string,
  double: DoubleProcess,
  provider: LiveMerchantProvider,
  credentials: Record<string, string>,
  priority?: number,
): Promise<string> {
  return (await connectProvider(merchantId, { provider, credentials, baseUrl: double.url, ...(priority ? { priority } : {}) })).providerId;
}

/** A live merchant with its own double, as a file with several providers keeps them. */
export type LiveShop = LiveMerchant & { provider: LiveMerchantProvider; double: DoubleProcess };

/** A provider's double started for the merchant's `credentials` and a merchant named `name` connected to it; the caller stops the double. */
export async function liveShop(
  owo: Owo,
  provider: LiveMerchantProvider,
  credentials: Record<string, string>,
  name: string,
  flags?: Record<string, string>,
): Promise<LiveShop> {
  const double = await spawnDouble(provider, doubleFlags(credentials, flags));
  return { ...(await connectLiveMerchant(owo, double, name, provider, credentials)), provider, double };
}

export type LiveSuite = { owo: Owo; double: DoubleProcess; m: LiveMerchant; receiver: Receiver };

/** A live file's Owo unless its `env` says otherwise: requerying at 1/1000 of its schedule, giving the provider 15 s. */
const LIVE_OWO_ENV = { OWO_REQUERY_BACKOFF_SCALE: "0.001", OWO_PROVIDER_TIMEOUT_MS: "15000" };

/**
 * A live test file's world, started before its tests and stopped after them: Owo (requerying at 1/1000 of its
 * schedule and giving the provider 15 s unless `env` says otherwise), a provider's double started for the merchant's
 * `credentials` and with `flags`, a merchant connected to it, and a receiver
 * for the merchant's callbacks; then `prepare`, the file's own set-up (node:test may run a file's `before` hooks
 * together). Read its fields inside the tests.
 */
export function liveSuite(
  provider: LiveMerchantProvider,
  credentials: Record<string, string>,
  opts: { name: string; env?: Record<string, string>; flags?: Record<string, string>; prepare?: (live: LiveSuite) => Promise<void> },
): LiveSuite {
  const live = {} as LiveSuite; // filled before the first test, as node:test runs `before` first
  before(async () => {
    const [owo, double, receiver] = await Promise.all([
      startOwo({ ...LIVE_OWO_ENV, ...opts.env }),
      spawnDouble(provider, doubleFlags(credentials, opts.flags)),
      startReceiver(),
    ]);
    Object.assign(live, { owo, double, receiver, m: await connectLiveMerchant(owo, double, opts.name, provider, credentials) });
    await opts.prepare?.(live);
  });
  after(async () => {
    await live.double?.stop();
    await live.receiver?.stop();
    await live.owo?.stop();
  });
  return live;
}

export type LiveShops<P extends LiveMerchantProvider> = { owo: Owo; receiver: Receiver; shops: Record<P, LiveShop> };

/**
 * liveSuite for a file that pays through several providers: Owo (`env` over liveSuite's defaults), a receiver for the
 * merchants' callbacks, and for each provider of `credentials` a double of its own with a merchant named
 * `<provider> <name>` connected to it, the notice URL pasted as the double's webhook URL.
 */
export function liveShops<P extends LiveMerchantProvider>(
  credentials: Record<P, Record<string, string>>,
  opts: { name: string; env?: Record<string, string> },
): LiveShops<P> {
  const live = { shops: {} } as LiveShops<P>; // filled before the first test, as node:test runs `before` first
  before(async () => {
    const [owo, receiver] = await Promise.all([startOwo({ ...LIVE_OWO_ENV, ...opts.env }), startReceiver()]);
    Object.assign(live, { owo, receiver });
    for (const provider of Object.keys(credentials) as P[])
      live.shops[provider] = await liveShop(owo, provider, credentials[provider], `${provider} ${opts.name}`);
  });
  after(async () => {
    await Promise.all(Object.values<LiveShop>(live.shops).map((shop) => shop.double.stop()));
    await live.receiver?.stop();
    await live.owo?.stop();
  });
  return live;
}

/** `payments` is the initiation answer's, as the harness's `json` is: inspected field by field. */
export type LiveInitiation = { paymentReference: string; linkingReference: string; payments: Answer["json"] };

/**
 * A live payment initiated over HTTP, answered 200: initiation.ts's sample order and customer, a new paymentReference
 * and `patch` (the channel, and any field the test means). Given a receiver, the merchant's callbacks for it go to the
 * receiver's /cb/<paymentReference>, where callbackEvents reads them.
 */
export async function initiateLive(
  owo: Owo,
  m: Pick<LiveMerchant, "token" | "publicKey">,
  patch: Body,
  receiver?: Receiver,
): Promise<LiveInitiation> {
  const paymentReference = String(patch.paymentReference ?? newReference("live"));
  const callback = receiver ? { callbackUrl: receiver.url(`/cb/${paymentReference}`) } : {};
  const body = { publicKey: m.publicKey, ...sampleOrder, ...callback, ...patch, paymentReference };
  const payments = await initiated(owo, m.token, body);
  return { paymentReference, linkingReference: String(payments.linkingReference), payments };
}

/** A live TRANSFER of `amount` under `paymentReference`, answered 200: its linkingReference. */
export async function initiateLiveTransfer(owo: Owo, m: LiveMerchant, amount: string, paymentReference: string): Promise<string> {
  return (await initiateLive(owo, m, { paymentType: "TRANSFER", amount, paymentReference })).linkingReference;
}

/**
 * The double's customer acts on the provider's transaction `reference` (pays, declines, lets it expire); answered once
 * the double's webhooks about it were sent and answered by Owo.
 */
export async function customerAt(
  double: DoubleProcess,
  action: "pay" | "decline" | "expire",
  reference: string,
  body: Body = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${double.url}/_double/transactions/${reference}/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  await fetch(`${double.url}/_double/webhooks`); // answers once the double's webhooks were sent and answered
  return { status: res.status, json };
}

/** The events of the merchant's callbacks for `paymentReference` at the receiver (initiateLive's /cb/<reference>). */
export function callbackEvents(receiver: Receiver, paymentReference: string): string[] {
  return receiver.received
    .filter((r) => r.path === `/cb/${paymentReference}`)
    .map((r) => {
      const body = JSON.parse(r.body) as { notificationItems: { notificationRequestItem: { data: { event: string } } }[] };
      return body.notificationItems[0]?.notificationRequestItem.data.event ?? "";
    });
}
