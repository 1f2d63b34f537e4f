// A merchant in live mode on a provider's test double, as the live suites need one: its account connected to the
// double (in the test's own process, so no credential check is made at the double), the double's webhooks sent to
// that account's notice URL, and live keys with a token.
import { call, createTestMerchant, startOwo, tokenFor, type Answer, type Owo } from "./harness";
import { newReference, sampleOrder, type Body } from "./initiation";
import { spawnDouble, type DoubleProcess } from "./processes";
import type { Receiver } from "./receiver";
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

export type LiveSetUp = { owo: Owo; double: DoubleProcess; m: LiveMerchant };

/**
 * Owo beside a provider's double started with the merchant's `credentials` (a double's flags are their kebab-case
 * names) and `flags`, and a live merchant connected to it. Owo requeries at 1/1000 of its schedule and gives the
 * provider 15 s unless `env` says otherwise; the caller stops `owo` and `double`.
 */
export async function startLive(
  provider: LiveMerchantProvider,
  credentials: Record<string, string>,
  opts: { name: string; env?: Record<string, string>; flags?: Record<string, string> },
): Promise<LiveSetUp> {
  const credentialFlags = Object.fromEntries(
    Object.entries(credentials).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v]),
  );
  const [owo, double] = await Promise.all([
    startOwo({ OWO_REQUERY_BACKOFF_SCALE: "0.001", OWO_PROVIDER_TIMEOUT_MS: "15000", ...opts.env }),
    spawnDouble(provider, { ...credentialFlags, ...opts.flags }),
  ]);
  return { owo, double, m: await connectLiveMerchant(owo, double, opts.name, provider, credentials) };
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
  const res = await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body });
  if (res.status !== 200) throw new Error(`initiating ${paymentReference} answered ${res.status}: ${res.text}`);
  const payments = res.json.data.payments as LiveInitiation["payments"];
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
